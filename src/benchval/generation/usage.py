"""Token usage and cost of an endpoint's calls: counted per run, estimated before a run, priced from config.

Each run's usage is appended, as it grows, to ``usage.jsonl`` beside the answer cache (:func:`append_usage`):
one line per finished ``generate`` call, cumulative for the run (``run``: a random id per client), so the
last line of a run is its total.

A price is ``{input_per_mtok, output_per_mtok}`` in US dollars per million tokens (the endpoint's
``price`` in config). Counted usage comes from the ``usage`` object of each answer; an answer without one
leaves the tokens and the cost missing, with the reason, never 0. An estimate before sending counts
``ceil(characters / 4) + 4`` tokens per message in (the usual rule of thumb for English text with a GPT
tokenizer, plus the message's framing) and ``max_tokens`` out, so its cost is an upper bound on the output.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchval.generation.prompts import Messages

TOKENS_PER_MESSAGE = 4
CHARS_PER_TOKEN = 4


def estimate_prompt_tokens(messages: Messages) -> int:
    return sum(math.ceil(len(m["content"]) / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE for m in messages)


def price_of(price: Mapping | None, prompt_tokens: int, completion_tokens: int) -> float | None:
    """US dollars for the tokens, or None without a price."""
    if price is None:
        return None
    return (prompt_tokens * price["input_per_mtok"] + completion_tokens * price["output_per_mtok"]) / 1e6


@dataclass
class Estimate:
    calls: int  # requests still to send (answers not in the cache)
    cached: int  # answers the cache already holds
    prompt_tokens: int
    max_completion_tokens: int
    cost_usd: float | None  # at most (output at max_tokens); None without a price

    def describe(self, who: str) -> str:
        cost = "cost unknown (no price in config)" if self.cost_usd is None else f"at most ${self.cost_usd:.6f}"
        return (
            f"{who}: {self.calls} calls to send ({self.cached} answered from the cache), about "
            f"{self.prompt_tokens} input tokens and at most {self.max_completion_tokens} output tokens: "
            f"estimated cost {cost}"
        )


def estimate(prompts: Sequence[Messages], cached: int, max_tokens: int, price: Mapping | None) -> Estimate:
    """The estimate for sending `prompts` (those not in the cache), `cached` others being answered from it."""
    prompt_tokens = sum(estimate_prompt_tokens(m) for m in prompts)
    completion = len(prompts) * int(max_tokens)
    return Estimate(len(prompts), cached, prompt_tokens, completion, price_of(price, prompt_tokens, completion))


@dataclass
class Usage:
    """What one client sent and was sent back in this run (thread-safe counters)."""

    price: Mapping | None = None
    requests_sent: int = 0  # every attempt, failed ones included
    answers_received: int = 0
    answers_from_cache: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answers_without_usage: int = 0
    resent_after_interrupt: int = 0  # in flight when an earlier run died: maybe paid twice (generation.in_flight)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count_request(self) -> None:
        with self._lock:
            self.requests_sent += 1

    def count_resent(self) -> None:
        with self._lock:
            self.resent_after_interrupt += 1

    def count_cached(self) -> None:
        with self._lock:
            self.answers_from_cache += 1

    def count_answer(self, body: Mapping) -> int | None:
        """Count one received answer; its total tokens, or None when it reports none."""
        usage = body.get("usage") if isinstance(body, Mapping) else None
        with self._lock:
            self.answers_received += 1
            try:
                prompt, completion = int(usage["prompt_tokens"]), int(usage["completion_tokens"])
            except (KeyError, TypeError, ValueError):
                self.answers_without_usage += 1
                return None
            self.prompt_tokens += prompt
            self.completion_tokens += completion
            return prompt + completion

    def summary(self) -> dict:
        """Counts, tokens and cost; tokens and cost are missing (None, with ``missing_reason``) when they could
        not be counted."""
        reasons = []
        if self.answers_without_usage:
            reasons.append(f"{self.answers_without_usage} answers reported no token usage")
        tokens_known = not self.answers_without_usage
        cost = price_of(self.price, self.prompt_tokens, self.completion_tokens) if tokens_known else None
        if self.price is None:
            reasons.append("no price in config")
        return {
            "requests_sent": self.requests_sent,
            "answers_received": self.answers_received,
            "answers_from_cache": self.answers_from_cache,
            "resent_after_interrupt": self.resent_after_interrupt,
            "prompt_tokens": self.prompt_tokens if tokens_known else None,
            "completion_tokens": self.completion_tokens if tokens_known else None,
            "cost_usd": None if cost is None else round(cost, 10),
            "missing_reason": "; ".join(reasons) or None,
        }


def append_usage(path: str | Path, record: Mapping) -> None:
    """Append one usage line to `path` (JSON lines, flushed to disk)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
