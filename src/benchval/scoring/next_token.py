"""Next-token log-probs of many prompts, their shared token prefixes fed once (the CommonWhy judge's Yes/No).

The fast engine (:mod:`benchval.scoring.engine`) packs the prompts exactly as it packs scoring requests:
prompts of one group key go into one row behind their longest common token prefix, each prompt's tail
attending to that prefix and to itself only, rows bin-packed and batched under a token budget. Each
prompt is an :class:`~benchval.scoring.tokens.EncodedRequest` whose context is the prompt and whose
one-token continuation is the first candidate, so the engine keeps the logits of exactly the prompt's
last position; there, the float32 log-softmax is read at every candidate token.

The numbers equal those of one prompt fed alone up to float rounding (a different batch shape sums in
another order): the judge check reports the largest difference and the margin nearest its threshold
(benchmarks/bench_judge_prefixes.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from benchval.scoring.base import TokenScores
from benchval.scoring.engine import FastScorer, PackedRow
from benchval.scoring.tokens import EncodedRequest


class NextTokenScorer(FastScorer):
    """log p(candidate | prompt) for a few candidate tokens after each prompt, prompts packed by group key."""

    engine_name = "fast-next-token"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._candidates: torch.Tensor | None = None

    def next_token_logprobs(
        self, prompts: Sequence[Sequence[int]], candidates: Sequence[int], group_keys: Sequence[str]
    ) -> np.ndarray:
        """(prompts, candidates) float32 log-probs of each candidate token right after each prompt's
        token ids; prompts of one key in `group_keys` share their common prefix."""
        if len(group_keys) != len(prompts):
            raise ValueError(f"{len(group_keys)} group keys for {len(prompts)} prompts")
        if any(len(p) == 0 for p in prompts):
            raise ValueError("a prompt has no tokens: nothing to predict the next token from")
        if not prompts:
            return np.zeros((0, len(candidates)), dtype=np.float32)
        encoded = [EncodedRequest(tuple(p), (int(candidates[0]),)) for p in prompts]
        self._candidates = torch.tensor([int(c) for c in candidates], dtype=torch.long)
        self.group_keys = [str(k) for k in group_keys]
        try:
            with torch.inference_mode():
                results = self._score_encoded(encoded)
        finally:
            self.group_keys = None
        return np.stack([r.token_logprobs for r in results])

    def _forward(self, rows: list[PackedRow], encoded: list[EncodedRequest], out: dict[int, TokenScores]) -> None:
        logits, kept_index = self._kept_logits(rows)
        members, kept = [], []
        for b, row in enumerate(rows):
            for m, at in zip(row.members, row.predict_at):
                members.append(m)
                kept.append(int(kept_index[b, at[-1]]))
        chosen = logits[torch.tensor(kept, device=logits.device)].float()
        logprobs = torch.log_softmax(chosen, dim=-1)[:, self._candidates.to(logits.device)].cpu().numpy()
        for m, row_logprobs in zip(members, logprobs):
            out[m] = TokenScores(row_logprobs, False)
