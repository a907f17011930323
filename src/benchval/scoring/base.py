"""The scorer interface: requests table in, scores table out (docs/data-contract.md, section 2).

Every engine shares the tokenisation (:mod:`benchval.scoring.tokens`) and the output assembly here;
an engine only turns encoded requests into per-token log-probs and greedy flags. Pick one with
:func:`make_scorer` (config ``scoring.engine``: ``reference`` or ``fast``).
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import torch

from benchval.models.placement import resolve_dtype
from benchval.models.placement import input_device, place
from benchval.scoring.requests import REQUEST_COLUMNS
from benchval.scoring.tokens import EncodedRequest, RequestEncoder

log = logging.getLogger(__name__)

SCORE_COLUMNS = ["logprob_sum", "n_tokens", "n_chars", "n_bytes", "token_logprobs", "is_greedy"]
ENGINES = ("reference", "fast")


@dataclass
class TokenScores:
    """Result for one request: float32 log p(token) of each continuation token, and greedy flag."""

    token_logprobs: np.ndarray
    is_greedy: bool


@dataclass
class ScoringStats:
    """Work counters of the last :meth:`Scorer.score` call.

    fed_tokens: positions the model computed (padding included); real_tokens: non-padding ones;
    unique_tokens: tokens that must pass the model at least once (each distinct context once, each
    continuation without its last token); request_tokens: context + continuation tokens of every pair.
    """

    n_requests: int = 0
    n_forward: int = 0
    fed_tokens: int = 0
    real_tokens: int = 0
    unique_tokens: int = 0
    request_tokens: int = 0
    boundary_fallbacks: int = 0
    oom_halvings: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = {k: v for k, v in vars(self).items() if k != "extra"}
        d.update(self.extra)
        return d


def unique_token_count(encoded: list[EncodedRequest]) -> int:
    """Tokens that must go through the model once: each distinct context, each continuation but its last."""
    contexts = {e.context_ids for e in encoded}
    return sum(len(c) for c in contexts) + sum(len(e.continuation_ids) - 1 for e in encoded)


def token_scores_from_logits(logits: torch.Tensor, targets: torch.Tensor) -> TokenScores:
    """Float32 log-softmax of ``logits`` (n, vocab) at the ``targets`` (n,) and the greedy check."""
    logprobs = torch.log_softmax(logits.float(), dim=-1)
    picked = logprobs.gather(-1, targets[:, None])[:, 0]
    greedy = bool((logits.argmax(dim=-1) == targets).all())
    return TokenScores(picked.to(torch.float32).cpu().numpy(), greedy)


class Scorer(ABC):
    """Scores a requests table with a causal LM. Subclasses implement :meth:`_score_encoded`."""

    engine_name = "abstract"
    engine_version = "0"

    def __init__(
        self,
        model,
        tokenizer,
        *,
        batch_tokens: int = 1024,
        device: str = "cpu",
        dtype: str | torch.dtype | None = None,
        progress: bool = False,
    ):
        if batch_tokens < 1:
            raise ValueError(f"batch_tokens must be >= 1, got {batch_tokens}")
        # a model spread over devices (models.placement) stays where it is; inputs go to its first layer
        self.model = place(model, torch.device(device), resolve_dtype(dtype) if dtype is not None else None)
        self.device = input_device(self.model)
        self.tokenizer = tokenizer
        self.encoder = RequestEncoder(tokenizer)
        self.batch_tokens = int(batch_tokens)
        self.progress = progress
        self.stats = ScoringStats()
        self.max_length = getattr(model.config, "max_position_embeddings", None)

    @abstractmethod
    def _score_encoded(self, encoded: list[EncodedRequest]) -> list[TokenScores]:
        """Per-token log-probs of each encoded request, in order."""

    def _check_lengths(self, requests: pd.DataFrame, encoded: list[EncodedRequest]) -> None:
        if self.max_length is None:
            return
        for rid, e in zip(requests["request_id"], encoded):
            if e.length - 1 > self.max_length:
                raise ValueError(f"request {rid!r}: {e.length} tokens exceed the model's {self.max_length} positions")

    def score(self, requests: pd.DataFrame) -> pd.DataFrame:
        """Add logprob_sum, n_tokens, n_chars, n_bytes, token_logprobs, is_greedy to ``requests``."""
        missing = [c for c in REQUEST_COLUMNS if c not in requests.columns]
        if missing:
            raise ValueError(f"requests table lacks columns {missing}")
        requests = requests.reset_index(drop=True)
        encoded = self.encoder.encode_frame(requests)
        self._check_lengths(requests, encoded)
        self.stats = ScoringStats(
            n_requests=len(encoded),
            unique_tokens=unique_token_count(encoded),
            request_tokens=sum(e.length for e in encoded),
            boundary_fallbacks=sum(e.boundary_fallback for e in encoded),
        )
        start = time.perf_counter()
        with torch.inference_mode():
            results = self._score_encoded(encoded) if encoded else []
        self.stats.seconds = time.perf_counter() - start
        return assemble_scores(requests, encoded, results)


def assemble_scores(requests: pd.DataFrame, encoded: list[EncodedRequest], results: list[TokenScores]) -> pd.DataFrame:
    """The scores table: request columns + score columns, one row per request."""
    if len(results) != len(encoded):
        raise RuntimeError(f"engine returned {len(results)} results for {len(encoded)} requests")
    out = requests[REQUEST_COLUMNS].copy()
    token_logprobs = [np.asarray(r.token_logprobs, dtype=np.float32) for r in results]
    for e, lp, rid in zip(encoded, token_logprobs, requests["request_id"]):
        if len(lp) != len(e.continuation_ids):
            raise RuntimeError(f"request {rid!r}: {len(lp)} log-probs for {len(e.continuation_ids)} tokens")
    out["logprob_sum"] = np.array([float(lp.astype(np.float64).sum()) for lp in token_logprobs], dtype=np.float64)
    out["n_tokens"] = np.array([len(e.continuation_ids) for e in encoded], dtype=np.int64)
    out["n_chars"] = out["continuation"].str.len().astype("int64")
    out["n_bytes"] = np.array([len(s.encode("utf-8")) for s in out["continuation"]], dtype=np.int64)
    out["token_logprobs"] = token_logprobs
    out["is_greedy"] = np.array([r.is_greedy for r in results], dtype=bool)
    return out


def make_scorer(engine: str, model, tokenizer, **options) -> Scorer:
    """The scorer named by config ``scoring.engine`` (``reference`` or ``fast``); ``options``: the keyword
    options of :class:`Scorer` (batch_tokens, device, dtype, progress).

    ``fast`` falls back to ``reference`` (logged warning; the scorer's ``engine_name`` says which ran,
    and the shard cache key with it) for a model the packed engine cannot serve exactly."""
    if engine == "reference":
        from benchval.scoring.reference import ReferenceScorer as cls
    elif engine == "fast":
        from benchval.scoring.engine import FastScorer as cls
        from benchval.scoring.engine import unsupported_reason

        reason = unsupported_reason(model)
        if reason is not None:  # never a wrong number: the one-pair-per-forward oracle instead
            from benchval.scoring.reference import ReferenceScorer as cls

            log.warning("fast engine cannot score this model exactly (%s); using the reference engine", reason)
    else:
        raise ValueError(f"unknown scoring engine {engine!r}; known: {list(ENGINES)}")
    return cls(model, tokenizer, **options)
