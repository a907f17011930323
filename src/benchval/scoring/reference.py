"""Naive exact scorer: one (context, continuation) pair per forward pass, no padding.

The plainest possible computation, kept as the oracle of the tests and the benchmark: feed
``context_ids + continuation_ids[:-1]``, take float32 log-softmax over the whole vocabulary at every
position, read the continuation tokens.
"""

from __future__ import annotations

import torch
from tqdm.auto import tqdm

from benchval.scoring.base import Scorer, TokenScores, token_scores_from_logits
from benchval.scoring.tokens import EncodedRequest


class ReferenceScorer(Scorer):
    engine_name = "reference"
    engine_version = "1"

    def _score_one(self, e: EncodedRequest) -> TokenScores:
        sequence = list(e.context_ids) + list(e.continuation_ids)
        inputs = torch.tensor([sequence[:-1]], dtype=torch.long, device=self.device)
        logits = self.model(input_ids=inputs, use_cache=False).logits[0]
        n_ctx = len(e.context_ids)
        targets = torch.tensor(e.continuation_ids, dtype=torch.long, device=logits.device)
        self.stats.n_forward += 1
        self.stats.fed_tokens += inputs.numel()
        self.stats.real_tokens += inputs.numel()
        return token_scores_from_logits(logits[n_ctx - 1 :], targets)

    def _score_encoded(self, encoded: list[EncodedRequest]) -> list[TokenScores]:
        bar = tqdm(encoded, desc="score (reference)", unit="req", disable=not self.progress)
        return [self._score_one(e) for e in bar]
