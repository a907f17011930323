"""Helpers of the scoring tests: tiny random-weight causal LMs and offline BPE tokenizers for the scoring tests.

- ``llama_nobos``: llama architecture, tokenizer that adds no special tokens (like SmolLM2/Qwen);
- ``llama_bos``: llama architecture, tokenizer that prepends BOS (like Gemma);
- ``gemma_sliding``: Gemma 3 text architecture with a 6-token sliding window on some layers and a
  BOS-adding tokenizer, so that the packed rows' sliding-window masks are exercised.

The BPE vocabulary is trained on sentences where "cats", "dogs", "sunset" occur often, so that a
continuation without a leading space ("s are") merges with the context ("The cat") and the joint
tokenisation does not start with the context's tokens (the boundary fallback).
"""

from __future__ import annotations

import pandas as pd
import torch
from transformers import Gemma3ForCausalLM, Gemma3TextConfig, PreTrainedTokenizerFast

from benchval.testing.tiny import common_config, tiny_llama, tiny_tokenizer
from benchval.testing.tiny import save_model as save_model  # re-exported: benchmarks/bench_scoring.py

CORPUS = [
    "The cats are sleeping on the warm mat while the dogs play outside.",
    "A man is cooking dinner in the kitchen and the cats watch him.",
    "She opened the window to let the fresh air into the room.",
    "The children ran across the park to catch the bus after school.",
    "He put the books on the shelf and sat down to read the newspaper.",
    "We watched the sunset from the hill and talked about the future.",
    "The dogs barked at the mailman, and the cats hid under the bed.",
    "N/A yes no maybe true false good bad",
] * 20


def make_tokenizer(add_bos: bool) -> PreTrainedTokenizerFast:
    return tiny_tokenizer(add_bos, CORPUS, vocab_size=300)


def make_llama(vocab: int):
    return tiny_llama(vocab, seed=1234, sharpen=True, max_positions=256)


def make_gemma(vocab: int):
    torch.manual_seed(4321)
    config = Gemma3TextConfig(
        **common_config(vocab, layers=3, max_positions=256),
        intermediate_size=64,
        num_key_value_heads=2,
        head_dim=8,
        sliding_window=6,
        layer_types=["sliding_attention", "full_attention", "sliding_attention"],
    )
    return Gemma3ForCausalLM(config).eval()


def load(path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    return model.eval(), AutoTokenizer.from_pretrained(path)


def make_items(mode: str) -> pd.DataFrame:
    """A few items of each scoring mode; varied lengths so that batches need padding. ``mc_suffix``:
    the ``mc`` items and two with a ``target`` (a shared suffix scored after each option, mode ``mc``)."""
    if mode == "minimal_pair":
        rows = [
            ("mp-0", "", ["The cats are sleeping.", "The cats is sleeping."], 0, None),
            ("mp-1", "", ["The dogs play outside.", "The dogs plays outside."], 0, None),
        ]
    elif mode == "partial":
        rows = [
            ("p-0", "The dogs barked at", [" the mailman", " the cats"], 0, ", and hid under the bed."),
            ("p-1", "She opened", [" the window", " the books"], 0, " to let the fresh air in."),
        ]
    else:
        rows = [
            (
                "i-0",
                "A man is cooking dinner in the kitchen",
                [" and the cats watch him.", " yes", " and sat down to read the newspaper today."],
                0,
                None,
            ),
            ("i-1", "The children ran across the park", [" to catch the bus after school.", " to read."], 1, None),
            (
                "i-2",
                "We watched the sunset from the hill and talked about the future while the dogs",
                [" barked.", " played outside in the warm park.", " yes", " no"],
                2,
                None,
            ),
            ("i-3", "He put the books", [" on the shelf", " under the bed", " good"], 0, None),
        ]
        if mode == "mc_suffix":  # mc items plus ones with a shared suffix (TimeDial's mid-sentence mask)
            rows += [
                (
                    "s-0",
                    "She opened",
                    [" the window", " the books", " a door"],
                    0,
                    " to let the fresh air into the room.",
                ),
                ("s-1", "The dogs barked at", [" the mailman", " the sun"], 1, ", and the cats hid under the bed."),
            ]
        if mode == "calibrated":
            rows = [(i, c, o + [" yes"] if " yes" not in o else o, lab, t) for i, c, o, lab, t in rows]
    return pd.DataFrame(
        [
            {"id": i, "context": c, "options": o, "label": lab, "target": t, "task": "toy", "source_row": n + 1}
            for n, (i, c, o, lab, t) in enumerate(rows)
        ]
    )
