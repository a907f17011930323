"""Fast exact scorer: each shared context goes through the model once, packed with its options.

Requests that condition on the same text (the options of one item; the prior requests of a
calibrated task, which all follow ``"N/A"``) form a *group*. A group is packed as::

    [shared prefix][option 1 tail][option 2 tail]...

The shared prefix is the longest common token prefix of the group's fed sequences (the whole
context, plus any leading continuation tokens the options share; for WinoGrande-style ``partial``
items the sentence up to the blank). Every tail attends to the prefix and causally to itself, never
to another tail; its position ids restart where the prefix ends. So each unique token is fed once,
and every score equals that of the pair fed alone. The last token of each continuation is not fed
(nothing is predicted from it).

Groups are then bin-packed (best fit, decreasing) into rows as long as the longest group, several
groups side by side with a block-diagonal mask, so that rows have nearly equal length; rows are
batched longest first under a token budget (rows x padded length). The output layer and the
float32 log-softmax are computed only at positions that predict a continuation token
(``logits_to_keep`` as a boolean mask). Sliding-window layers (Gemma 2/3, Qwen 2 by ``layer_types``;
Mistral, whose window applies to every layer) get their own mask, the window measured in position
ids, unless the window covers every row of the batch (e.g. Gemma 2's 4,096 positions), where the
full mask serves them too. Masks are built on the model's device from the rows' segment, anchor and
position ids; only the causal base, which does not depend on the packing, is cached. Models of a
type not checked exact (:data:`EXACT_MODEL_TYPES`) are not served here:
:func:`benchval.scoring.scorer_factory.make_scorer` gives them the reference engine with a warning.
Requests whose joint tokenisation does not start with the context's tokens (see
:mod:`benchval.scoring.tokens`) are computed in full as a group of their own (no sharing), and counted.
On CUDA out-of-memory the budget halves and the batch is retried.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass

import torch
from tqdm.auto import tqdm

from benchval.models.placement import is_dispatched
from benchval.scoring.base import Scorer, TokenScores
from benchval.scoring.tokens import EncodedRequest

LOGIT_CHUNK = 256  # rows of logits turned into float32 log-probs at a time


@dataclass
class PackedRow:
    """One packed row of one or more groups: token ids, position ids, segment ids (each group's
    shared prefix and each tail have their own id), anchors (the id of the shared prefix of the
    token's group) and, per member request, the row indices whose logits predict its tokens."""

    tokens: list[int]
    positions: list[int]
    segments: list[int]
    anchors: list[int]
    members: list[int]  # request indices
    predict_at: list[list[int]]  # per member: row indices, one per continuation token

    def __len__(self) -> int:
        return len(self.tokens)


def _common_prefix_length(sequences: list[tuple[int, ...]]) -> int:
    first = sequences[0]
    n = min(len(s) for s in sequences)
    for i in range(n):
        t = first[i]
        if any(s[i] != t for s in sequences):
            return i
    return n


def pack_group(encoded: list[EncodedRequest], members: list[int]) -> PackedRow:
    """Pack requests ``members`` of ``encoded`` behind their longest common fed prefix."""
    fed = [(encoded[m].context_ids + encoded[m].continuation_ids)[:-1] for m in members]
    shared = _common_prefix_length(fed)
    tokens, positions = list(fed[0][:shared]), list(range(shared))
    segments = [0] * shared
    predict_at = []
    for j, (m, seq) in enumerate(zip(members, fed), start=1):
        start = len(tokens)
        tokens.extend(seq[shared:])
        positions.extend(range(shared, len(seq)))
        segments.extend([j] * (len(seq) - shared))
        first = len(encoded[m].context_ids) - 1  # fed position predicting the first continuation token
        predict_at.append([p if p < shared else start + p - shared for p in range(first, len(seq))])
    return PackedRow(tokens, positions, segments, [0] * len(tokens), list(members), predict_at)


def combine_rows(rows: list[PackedRow]) -> PackedRow:
    """Several groups side by side in one row; segment ids renumbered so that groups never meet."""
    out = PackedRow([], [], [], [], [], [])
    next_id = 0
    for row in rows:
        offset = len(out.tokens)
        out.tokens.extend(row.tokens)
        out.positions.extend(row.positions)
        out.segments.extend(s + next_id for s in row.segments)
        out.anchors.extend(a + next_id for a in row.anchors)
        out.members.extend(row.members)
        out.predict_at.extend([p + offset for p in at] for at in row.predict_at)
        next_id += max(row.segments) + 1
    return out


def bin_pack(rows: list[PackedRow], capacity: int) -> list[PackedRow]:
    """Best-fit-decreasing: put the groups' rows into as few rows of at most ``capacity`` tokens as
    possible (a row longer than ``capacity`` stays alone), so that batches carry almost no padding."""
    bins: list[list[PackedRow]] = []
    free: list[tuple[int, int]] = []  # sorted (free tokens, bin index)
    for row in sorted(rows, key=len, reverse=True):
        at = bisect.bisect_left(free, (len(row), -1))
        if at < len(free):
            space, b = free.pop(at)
            bins[b].append(row)
            bisect.insort(free, (space - len(row), b))
        else:
            bins.append([row])
            bisect.insort(free, (capacity - len(row), len(bins) - 1))
    return [combine_rows(b) if len(b) > 1 else b[0] for b in bins]


def group_requests(encoded: list[EncodedRequest], group_keys: list[str], subset: list[int]) -> list[list[int]]:
    """Indices ``subset`` grouped by key (first-appearance order); boundary fallbacks stand alone."""
    groups: dict[str, list[int]] = {}
    for i in subset:
        groups.setdefault(f"fallback:{i}" if encoded[i].boundary_fallback else group_keys[i], []).append(i)
    return list(groups.values())


def split_group(encoded: list[EncodedRequest], members: list[int], budget: int) -> list[list[int]]:
    """Split a group whose packed row would exceed ``budget`` tokens into consecutive chunks."""
    chunks, current, length = [], [], 0
    for m in members:
        n = encoded[m].length - 1
        if current and length + n - len(encoded[m].context_ids) > budget:
            chunks.append(current)
            current, length = [], 0
        if not current:
            length = len(encoded[m].context_ids)
        current.append(m)
        length += n - len(encoded[m].context_ids)
    if current:
        chunks.append(current)
    return chunks


def _row_table(rows: list[PackedRow], width: int, field: str, fill: int) -> torch.Tensor:
    """(batch, width) long tensor of one per-token field of the rows, padded with ``fill``."""
    table = torch.full((len(rows), width), fill, dtype=torch.long)
    for b, row in enumerate(rows):
        table[b, : len(row)] = torch.tensor(getattr(row, field))
    return table


def block_attention_mask(
    rows: list[PackedRow],
    width: int,
    window: int | None = None,
    device: torch.device | str = "cpu",
    causal: torch.Tensor | None = None,
) -> torch.Tensor:
    """Boolean (batch, 1, width, width) mask on ``device``, True where a query may attend to a key.

    Causal, and a tail token sees only its group's shared prefix and its own tail. Padding attends to itself
    (so no attention row is empty). ``window``: sliding-window layers also require
    ``position(query) - position(key) < window``. ``causal``: a cached lower-triangular boolean
    matrix on ``device`` at least ``width`` wide (the only part that does not depend on the packing).
    Only the per-token segment, anchor and position ids travel to ``device``; the mask is built there.
    """
    seg = _row_table(rows, width, "segments", -1).to(device)
    anchor = _row_table(rows, width, "anchors", -1).to(device)
    if causal is None:
        causal = causal_base(width, device)
    q, k = seg[:, :, None], seg[:, None, :]
    mask = causal[None, :width, :width] & ((k == q) | (k == anchor[:, :, None])) & (q >= 0) & (k >= 0)
    if window is not None:
        pos = _row_table(rows, width, "positions", 0).to(device)
        mask &= (pos[:, :, None] - pos[:, None, :]) < window
    mask |= torch.eye(width, dtype=torch.bool, device=device)[None] & (q < 0)
    return mask[:, None]


def causal_base(width: int, device: torch.device | str) -> torch.Tensor:
    """Lower-triangular boolean (width, width) matrix on ``device``: query i may see keys 0..i."""
    return torch.ones((width, width), dtype=torch.bool, device=device).tril_()


def window_needed(rows: list[PackedRow], window: int | None) -> bool:
    """Whether a sliding window of ``window`` positions masks anything in ``rows``: positions start at 0
    in every group, so no two tokens of a row are ``window`` or more positions apart when the largest
    position is below it."""
    return window is not None and max(max(r.positions) for r in rows) >= window


# Model types whose packed rows are checked against the reference engine (tests/scoring/
# test_architectures.py, the real models of test_real_models.py): position ids and a 4-D mask reach
# every layer unchanged. Any other model type is scored by the reference engine (make_scorer warns).
EXACT_MODEL_TYPES = ("llama", "mistral", "qwen2", "gemma2", "gemma3_text", "gpt_neox", "opt")
# Attention implementations that take a custom 4-D mask (flash-attention kernels drop it).
MASKED_ATTENTION = ("sdpa", "eager")


def unsupported_reason(model) -> str | None:
    """Why the packed engine cannot score ``model`` exactly, or None when it can."""
    config = model.config
    model_type = getattr(config, "model_type", None)
    if model_type not in EXACT_MODEL_TYPES:
        return f"model type {model_type!r} is not among those checked exact for packed rows {list(EXACT_MODEL_TYPES)}"
    attention = getattr(config, "_attn_implementation", None) or "sdpa"
    if attention not in MASKED_ATTENTION:
        return (
            f"attention implementation {attention!r} ignores a custom 4-D mask (needs one of {list(MASKED_ATTENTION)})"
        )
    return None


class FastScorer(Scorer):
    engine_name = "fast"
    engine_version = "2"  # 2: Mistral's every-layer sliding window

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        config = self.model.config
        layer_types = getattr(config, "layer_types", None) or []
        window = getattr(config, "sliding_window", None)
        # Mistral: a sliding window and no layer_types means every layer slides (one mask).
        self.every_layer_slides = bool(window) and not layer_types
        slides = "sliding_attention" in layer_types or self.every_layer_slides
        self.sliding_window = int(window) if window and slides else None
        self.layer_types = sorted(set(layer_types))
        self.attn_implementation = getattr(config, "_attn_implementation", "sdpa") or "sdpa"
        self.group_keys: list[str] | None = None
        self.pack_groups = True  # several groups in one row (block-diagonal mask), no padding
        # the boolean logits_to_keep indexes the last layer's output: on CPU it may index any device
        self.keep_device = torch.device("cpu") if is_dispatched(self.model) else self.device
        self._causal_cache: torch.Tensor | None = None

    # -- requests -> rows -> batches -------------------------------------------------------------

    def _keys(self, n: int) -> list[str]:
        if self.group_keys is not None and len(self.group_keys) == n:
            return self.group_keys
        return [f"request:{i}" for i in range(n)]

    def _rows(self, encoded: list[EncodedRequest], subset: list[int]) -> list[PackedRow]:
        """Packed rows of the requests ``subset`` under the current budget."""
        rows = []
        for members in group_requests(encoded, self._keys(len(encoded)), subset):
            for chunk in split_group(encoded, members, self.batch_tokens):
                rows.append(pack_group(encoded, chunk))
        if not self.pack_groups or not rows:
            return rows
        return bin_pack(rows, min(self.batch_tokens, max(len(r) for r in rows)))

    def _take_batch(self, rows: list[PackedRow], start: int) -> list[PackedRow]:
        """Rows from ``start`` of the longest-first list, as many as fit ``batch_tokens`` when padded."""
        width = len(rows[start])
        return rows[start : start + max(1, self.batch_tokens // width)]

    # -- one forward -----------------------------------------------------------------------------

    def _causal(self, width: int) -> torch.Tensor:
        """The cached causal base on the model's device, grown to ``width`` when a wider batch comes."""
        if self._causal_cache is None or self._causal_cache.shape[0] < width:
            self._causal_cache = causal_base(width, self.device)
        return self._causal_cache

    def _mask_argument(self, rows: list[PackedRow], width: int):
        causal = self._causal(width)
        full = block_attention_mask(rows, width, device=self.device, causal=causal)
        masks = {"full_attention": full}
        if self.sliding_window is not None:
            # the window covers every row of this batch: the sliding layers get the full mask itself
            masks["sliding_attention"] = (
                block_attention_mask(rows, width, self.sliding_window, self.device, causal)
                if window_needed(rows, self.sliding_window)
                else full
            )
        if self.attn_implementation == "eager":
            dtype = next(self.model.parameters()).dtype
            additive = {
                id(m): torch.zeros(m.shape, dtype=dtype, device=self.device).masked_fill_(~m, torch.finfo(dtype).min)
                for m in masks.values()
            }
            masks = {k: additive[id(m)] for k, m in masks.items()}
        if self.every_layer_slides:
            return masks["sliding_attention"]
        if self.sliding_window is not None or len(self.layer_types) > 1:
            return {t: masks.get(t, masks["full_attention"]) for t in self.layer_types}
        return masks["full_attention"]

    def _forward(self, rows: list[PackedRow], encoded: list[EncodedRequest], out: dict[int, TokenScores]) -> None:
        logits, kept_index = self._kept_logits(rows)
        spans, kept, targets = [], [], []
        for b, row in enumerate(rows):
            for m, at in zip(row.members, row.predict_at):
                spans.append((m, len(kept), len(kept) + len(at)))
                kept.extend(kept_index[b, at].tolist())
                targets.extend(encoded[m].continuation_ids)
        picked, greedy = self._gather_logprobs(logits, torch.tensor(kept), torch.tensor(targets))
        for m, a, z in spans:
            out[m] = TokenScores(picked[a:z], bool(greedy[a:z].all()))

    def _kept_logits(self, rows: list[PackedRow]) -> tuple[torch.Tensor, torch.Tensor]:
        """One forward of ``rows``: the logits (kept positions, vocab) at the positions that predict a
        continuation token, and (batch, width) the index of each position among the kept ones."""
        width = max(len(r) for r in rows)
        tokens = torch.zeros((len(rows), width), dtype=torch.long)
        positions = torch.zeros((len(rows), width), dtype=torch.long)
        keep = torch.zeros((len(rows), width), dtype=torch.bool)
        for b, row in enumerate(rows):
            tokens[b, : len(row)] = torch.tensor(row.tokens)
            positions[b, : len(row)] = torch.tensor(row.positions)
            for at in row.predict_at:
                keep[b, at] = True
        logits = self.model(
            input_ids=tokens.to(self.device),
            position_ids=positions.to(self.device),
            attention_mask=self._mask_argument(rows, width),
            logits_to_keep=keep.to(self.keep_device),
            use_cache=False,
        ).logits
        logits = logits.reshape(-1, logits.shape[-1])  # (kept positions, vocab), row-major order
        kept_index = (keep.reshape(-1).cumsum(0) - 1).reshape(keep.shape)
        self.stats.n_forward += 1
        self.stats.fed_tokens += tokens.numel()
        self.stats.real_tokens += sum(len(r) for r in rows)
        return logits, kept_index

    def _gather_logprobs(self, logits: torch.Tensor, kept: torch.Tensor, targets: torch.Tensor):
        """Float32 log-softmax of ``logits`` rows ``kept`` at ``targets`` (chunks of rows, so that the
        float32 copy of the logits never exists in full), and whether each target is the argmax."""
        kept_dev, targets_dev = kept.to(logits.device), targets.to(logits.device)
        picked = torch.empty(len(kept), dtype=torch.float32, device=logits.device)
        for a in range(0, logits.shape[0], LOGIT_CHUNK):
            sel = (kept_dev >= a) & (kept_dev < a + LOGIT_CHUNK)
            logprobs = torch.log_softmax(logits[a : a + LOGIT_CHUNK].float(), dim=-1)
            picked[sel] = logprobs[kept_dev[sel] - a, targets_dev[sel]]
        greedy = logits.argmax(dim=-1)[kept_dev] == targets_dev
        return picked.cpu().numpy(), greedy.cpu().numpy()

    def _run_batch(self, rows, encoded, out) -> bool:
        """Forward ``rows``; on CUDA out-of-memory halve the budget and report failure (the caller
        re-packs what is left under the new budget)."""
        try:
            self._forward(rows, encoded, out)
            return True
        except torch.OutOfMemoryError:
            if self.device.type == "cuda":
                torch.cuda.empty_cache()
            if self.batch_tokens == 1:
                raise
            self.batch_tokens = max(1, self.batch_tokens // 2)
            self.stats.oom_halvings += 1
            return False

    # -- driver ----------------------------------------------------------------------------------

    def _score_encoded(self, encoded: list[EncodedRequest]) -> list[TokenScores]:
        out: dict[int, TokenScores] = {}
        n_items = len(set(self._keys(len(encoded))))
        bar = tqdm(
            total=len(encoded), desc=f"score ({self.engine_name})", unit="req", disable=not self.progress, mininterval=5
        )
        start, done_tokens = time.perf_counter(), 0
        pending = list(range(len(encoded)))
        while pending:  # one pass, or more after an out-of-memory halved the budget (rows re-packed)
            rows = sorted(self._rows(encoded, pending), key=len, reverse=True)
            self.stats.extra["n_rows"] = self.stats.extra.get("n_rows", 0) + len(rows)
            index = 0
            while index < len(rows):
                batch = self._take_batch(rows, index)
                if not self._run_batch(batch, encoded, out):
                    break
                index += len(batch)
                done_tokens += sum(encoded[m].length for r in batch for m in r.members)
                elapsed = max(time.perf_counter() - start, 1e-9)
                bar.update(sum(len(r.members) for r in batch))
                bar.set_postfix(
                    items_s=f"{n_items * bar.n / len(encoded) / elapsed:.1f}",
                    tok_s=f"{done_tokens / elapsed:.0f}",
                    refresh=False,
                )
            pending = [i for i in pending if i not in out]
        bar.close()
        return [out[i] for i in range(len(encoded))]

    def score(self, requests):
        """As :meth:`Scorer.score`; requests of one item (or priors of one context) share a row."""
        keys = [
            f"prior:{c}" if k == "prior" else f"item:{i}"
            for k, i, c in zip(requests["kind"], requests["item_id"], requests["context"])
        ]
        self.group_keys = keys
        try:
            return super().score(requests)
        finally:
            self.group_keys = None
