"""Load a prepared model (resources/models/{model}/) for scoring."""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from benchval.models.hf import hub_error
from benchval.models.manifest import manifest_path, read_manifest

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


class ModelLoadError(RuntimeError):
    """A prepared model could not be loaded."""


def resolve_dtype(dtype: str | torch.dtype) -> torch.dtype:
    """'float32' | 'bfloat16' | 'float16' (or a torch.dtype) -> torch.dtype."""
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype not in DTYPES:
        raise ValueError(f"dtype {dtype!r} is not one of {sorted(DTYPES)}")
    return DTYPES[dtype]


def resolve_device(device: str) -> str:
    """'cpu' | 'cuda' | 'auto' (cuda when available, else cpu) -> a torch device string."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ModelLoadError(f"device {device!r} requested but CUDA is not available here")
    if device != "cpu" and not device.startswith("cuda"):
        raise ValueError(f"device {device!r} is not one of cpu, cuda, auto")
    return device


def load_target(model_dir: Path, manifest: dict) -> tuple[str, dict]:
    """What to pass to from_pretrained (a folder or a Hub id) and the extra keyword arguments."""
    load_from = manifest["load_from"]
    if load_from["kind"] == "folder":
        folder = Path(load_from["path"])
        return str(folder if folder.is_absolute() else model_dir / folder), {}
    cached = load_from.get("path")
    if cached and Path(cached).is_dir():
        return cached, {}
    return load_from["id"], {"revision": load_from.get("revision")}


def load_prepared(model_dir: str | Path, device: str = "cpu", dtype: str | torch.dtype = "float32"):
    """(model, tokenizer) of a prepared model folder; the model is in eval mode on `device`.

    The manifest's own `dtype`/`device` (from the config) are what the scorer should pass.
    """
    model_dir = manifest_path(model_dir).parent
    manifest = read_manifest(model_dir)
    torch_dtype, device = resolve_dtype(dtype), resolve_device(device)
    target, kwargs = load_target(model_dir, manifest)
    try:
        tokenizer = AutoTokenizer.from_pretrained(target, **kwargs)
        model = AutoModelForCausalLM.from_pretrained(target, dtype=torch_dtype, **kwargs)
    except OSError as error:
        if manifest["load_from"]["kind"] == "hub":
            raise hub_error(manifest["name"], target, kwargs.get("revision"), error) from error
        message = f"model {manifest['name']!r}: cannot load {target}: {error}"
        raise ModelLoadError(message) from error
    model = model.to(device=device, dtype=torch_dtype).eval()
    return model, tokenizer
