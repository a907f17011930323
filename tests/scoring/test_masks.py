"""The fast engine's attention masks (benchval.scoring.engine): built on the model's device from a cached
causal base, equal to the mask built the old way on the CPU, and the sliding-window mask skipped only
where the window covers every row."""

from __future__ import annotations

import random

import pytest
import torch

from benchval.scoring.engine import (
    FastScorer,
    bin_pack,
    block_attention_mask,
    causal_base,
    pack_group,
    window_needed,
)
from benchval.scoring.tokens import EncodedRequest


def cpu_mask(rows, width, window=None):
    """The mask as engine version 2 built it on the CPU for every batch (the reference here)."""
    seg = torch.full((len(rows), width), -1, dtype=torch.long)
    anchor = torch.full((len(rows), width), -1, dtype=torch.long)
    pos = torch.zeros((len(rows), width), dtype=torch.long)
    for b, row in enumerate(rows):
        seg[b, : len(row)] = torch.tensor(row.segments)
        anchor[b, : len(row)] = torch.tensor(row.anchors)
        pos[b, : len(row)] = torch.tensor(row.positions)
    idx = torch.arange(width)
    causal = idx[None, :, None] >= idx[None, None, :]
    q, k = seg[:, :, None], seg[:, None, :]
    mask = causal & ((k == q) | (k == anchor[:, :, None])) & (q >= 0) & (k >= 0)
    if window is not None:
        mask &= (pos[:, :, None] - pos[:, None, :]) < window
    mask |= torch.eye(width, dtype=torch.bool)[None] & (q < 0)
    return mask[:, None]


def random_rows(seed: int, groups: int = 12):
    rng = random.Random(seed)
    encoded, rows = [], []
    for _ in range(groups):
        context = tuple(rng.randrange(100) for _ in range(rng.randint(1, 30)))
        members = []
        for _ in range(rng.randint(1, 4)):
            encoded.append(EncodedRequest(context, tuple(rng.randrange(100) for _ in range(rng.randint(1, 9)))))
            members.append(len(encoded) - 1)
        rows.append(pack_group(encoded, members))
    packed = sorted(bin_pack(rows, max(len(r) for r in rows)), key=len, reverse=True)
    return packed, len(packed[0])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("window", [None, 3, 8, 1000])
def test_the_device_mask_equals_the_cpu_mask(seed, window):
    rows, width = random_rows(seed)
    cached = causal_base(width + 17, "cpu")  # a wider cached base is sliced, not rebuilt
    assert torch.equal(block_attention_mask(rows, width, window, "cpu", cached), cpu_mask(rows, width, window))
    assert torch.equal(block_attention_mask(rows, width, window), cpu_mask(rows, width, window))


def test_the_mask_is_built_on_the_requested_device():
    rows, width = random_rows(0)
    assert block_attention_mask(rows, width, 4, device="meta").device.type == "meta"


@pytest.mark.parametrize("seed", range(5))
def test_the_window_mask_is_skipped_only_where_it_changes_nothing(seed):
    rows, width = random_rows(seed)
    largest = max(max(r.positions) for r in rows)
    assert not window_needed(rows, largest + 1) and not window_needed(rows, None)
    assert torch.equal(cpu_mask(rows, width, largest + 1), cpu_mask(rows, width))  # skipping is exact
    assert window_needed(rows, largest)
    assert not torch.equal(cpu_mask(rows, width, largest), cpu_mask(rows, width))  # here it is not


def test_the_scorer_caches_only_the_causal_base(monkeypatch):
    from benchval.testing.architectures import build_architecture
    from benchval.testing.tiny import tiny_tokenizer

    tokenizer = tiny_tokenizer(False)
    model = build_architecture("gemma2", len(tokenizer) + 8, window=4096)  # Gemma 2's window: never needed here
    scorer = FastScorer(model, tokenizer)
    built = []
    real = block_attention_mask

    def counting(rows, width, window=None, device="cpu", causal=None):
        built.append(window)
        return real(rows, width, window, device, causal)

    monkeypatch.setattr("benchval.scoring.engine.block_attention_mask", counting)
    rows, width = random_rows(1)
    masks = scorer._mask_argument(rows, width)
    assert built == [None]  # no window mask: the sliding layers get the full one
    assert masks["sliding_attention"] is masks["full_attention"]
    first = scorer._causal_cache
    scorer._mask_argument(rows[1:], len(rows[1]))  # a narrower batch reuses the cached base
    assert scorer._causal_cache is first and first.shape[0] == width
