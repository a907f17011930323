"""Dequantise a GGUF file with transformers and save it as a plain fp32 Hugging Face folder."""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

log = logging.getLogger(__name__)

ROUND_TRIP_TEXT = "The quick brown fox jumps over the lazy dog. 1, 2, 3"
ROUND_TRIP_TOLERANCE = 1e-4  # max |logit difference| between the GGUF-loaded and saved copies


class RoundTripError(RuntimeError):
    """The saved fp32 copy does not reproduce the GGUF-loaded model."""


@contextlib.contextmanager
def parse_each_gguf_once() -> Iterator[None]:
    """Memoise gguf's file reader and tensor-name map while transformers loads a GGUF file.

    transformers parses the same file three times (tokenizer, config, weights) and rebuilds the
    architecture's tensor-name map once per tensor; both are pure Python over the whole vocabulary
    and took three quarters of the load (SmolLM2: 34 s -> 15 s, identical weights). transformers
    imports both names from `gguf` at call time, so patching the module is enough; it is restored
    on exit, which also closes the cached memory maps.
    """
    import gguf

    originals = {"GGUFReader": gguf.GGUFReader, "get_tensor_name_map": gguf.get_tensor_name_map}
    for name, function in originals.items():
        setattr(gguf, name, functools.lru_cache(maxsize=None)(function))
    try:
        yield
    finally:
        for name, function in originals.items():
            setattr(gguf, name, function)


def load_gguf(gguf_path: Path):
    """(model, tokenizer) dequantised from `gguf_path` to float32, model in eval mode."""
    started = time.perf_counter()
    folder, name = str(gguf_path.parent), gguf_path.name
    with parse_each_gguf_once():
        tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
        model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    model = model.to(torch.float32).eval()
    log.info(
        "dequantised %s (%s, %.1f M parameters) in %.1f s",
        name,
        type(model).__name__,
        model.num_parameters() / 1e6,
        time.perf_counter() - started,
    )
    return model, tokenizer


def strip_quantisation(model) -> None:
    """Forget the GGUF origin so that save_pretrained accepts the (already dequantised) model."""
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config


@torch.inference_mode()
def reference_logits(model, tokenizer) -> tuple[list[int], torch.Tensor]:
    """Token ids of ROUND_TRIP_TEXT and the model's logits for them (for the round-trip check)."""
    ids = tokenizer(ROUND_TRIP_TEXT)["input_ids"]
    logits = model(torch.tensor([ids])).logits[0].float()
    return ids, logits


def dequantise_to_folder(gguf_path: Path, dest: Path):
    """Write the fp32 HF folder (config.json, model.safetensors, tokenizer files) to `dest`.

    The saved copy is reloaded and must give the same token ids and logits (within
    ROUND_TRIP_TOLERANCE) as the GGUF-loaded model, else RoundTripError. Returns the reloaded
    (model, tokenizer).
    """
    model, tokenizer = load_gguf(gguf_path)
    ids, logits = reference_logits(model, tokenizer)
    strip_quantisation(model)
    started = time.perf_counter()
    model.save_pretrained(dest)
    tokenizer.save_pretrained(dest)
    log.info("saved fp32 copy to %s in %.1f s", dest, time.perf_counter() - started)
    del model
    gc.collect()
    return check_round_trip(dest, ids, logits)


def check_round_trip(folder: Path, ids: list[int], logits: torch.Tensor):
    """Reload `folder` and compare with the GGUF-loaded ids/logits; return (model, tokenizer)."""
    started = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
    reloaded_ids, reloaded_logits = reference_logits(model, tokenizer)
    if reloaded_ids != ids:
        raise RoundTripError(f"saved tokenizer in {folder} gives {reloaded_ids}, GGUF gave {ids}")
    difference = (reloaded_logits - logits).abs().max().item()
    if difference > ROUND_TRIP_TOLERANCE:
        raise RoundTripError(
            f"saved model in {folder} differs from the GGUF-loaded one: max |logit diff| "
            f"{difference:.3g} > {ROUND_TRIP_TOLERANCE}"
        )
    log.info("round trip OK: reloaded in %.1f s, max |logit diff| %.2g", time.perf_counter() - started, difference)
    return model, tokenizer
