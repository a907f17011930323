"""The scorer a config asks for: :func:`make_scorer` (config ``scoring.engine``: ``reference`` or ``fast``).

Its own module, above the engines (benchval.scoring.reference, benchval.scoring.engine) that build on
benchval.scoring.base, so that no engine module imports the module that imports it.
"""

from __future__ import annotations

import logging

from benchval.scoring.base import Scorer
from benchval.scoring.engine import FastScorer, unsupported_reason
from benchval.scoring.reference import ReferenceScorer
from benchval.plumbing.config_error import unknown_name

log = logging.getLogger(__name__)

ENGINES = ("reference", "fast")


def make_scorer(engine: str, model, tokenizer, **options) -> Scorer:
    """The scorer named by config ``scoring.engine`` (``reference`` or ``fast``); ``options``: the keyword
    options of :class:`Scorer` (batch_tokens, device, dtype, progress).

    ``fast`` falls back to ``reference`` (logged warning; the scorer's ``engine_name`` says which ran,
    and the shard cache key with it) for a model the packed engine cannot serve exactly."""
    if engine == "reference":
        cls = ReferenceScorer
    elif engine == "fast":
        cls = FastScorer

        reason = unsupported_reason(model)
        if reason is not None:  # never a wrong number: the one-pair-per-forward oracle instead
            cls = ReferenceScorer
            log.warning("fast engine cannot score this model exactly (%s); using the reference engine", reason)
    else:
        raise ValueError(unknown_name("scoring engine", engine, ENGINES, "benchval.scoring.scorer_factory.ENGINES"))
    return cls(model, tokenizer, **options)
