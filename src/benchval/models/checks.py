"""Sanity checks of a loaded model: log-probability of a continuation given a context.

:func:`require_paris_margin` is enforced by prepare_model on real weights (models.registry:
`ModelSpec.checks_sanity`): a broken conversion or download stops there, before any scoring.
"""

from __future__ import annotations

import torch

from benchval.models.placement import input_device

PARIS_CONTEXT = "The capital of France is"
PARIS_GOOD, PARIS_BAD = " Paris", " banana"
PARIS_MIN_MARGIN = 14.0  # nats; every MODELS.md model passes (docs: /work/shared/MODELS.md)


class SanityCheckError(ValueError):
    """A prepared model fails the Paris check: its weights or conversion are broken."""


@torch.inference_mode()
def continuation_logprob(model, tokenizer, context: str, continuation: str) -> float:
    """Sum of natural-log p(token) over the tokens of `continuation` after `context`.

    The context is tokenised with the tokenizer's special tokens (so BOS where it adds one),
    the continuation without; softmax in float32.
    """
    context_ids = tokenizer(context)["input_ids"]
    continuation_ids = tokenizer(continuation, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([context_ids + continuation_ids], device=input_device(model))
    logits = model(ids).logits[0, len(context_ids) - 1 : -1].float()
    logprobs = torch.log_softmax(logits, dim=-1)
    targets = torch.tensor(continuation_ids, device=logprobs.device)
    return logprobs.gather(1, targets[:, None]).sum().item()


def paris_check(model, tokenizer) -> dict:
    """log p(" Paris" | ctx) and log p(" banana" | ctx) and their difference (margin, nats)."""
    good = continuation_logprob(model, tokenizer, PARIS_CONTEXT, PARIS_GOOD)
    bad = continuation_logprob(model, tokenizer, PARIS_CONTEXT, PARIS_BAD)
    return {
        "context": PARIS_CONTEXT,
        "logprob": {PARIS_GOOD: good, PARIS_BAD: bad},
        "margin": good - bad,
    }


def require_paris_margin(name: str, sanity: dict) -> None:
    """Raise SanityCheckError naming model `name` when :func:`paris_check`'s margin is below the bar."""
    if sanity["margin"] < PARIS_MIN_MARGIN:
        logprob = sanity["logprob"]
        raise SanityCheckError(
            f"model {name!r} fails the sanity check: log p({PARIS_GOOD!r} | {PARIS_CONTEXT!r}) = "
            f"{logprob[PARIS_GOOD]:.2f} is only {sanity['margin']:.2f} nats above log p({PARIS_BAD!r}) = "
            f"{logprob[PARIS_BAD]:.2f}; a real model must clear {PARIS_MIN_MARGIN:g} nats. The weights or "
            "their conversion are likely broken. For a model with random weights (tests, rehearsals) set "
            f"`sanity_check: false` in models.{name}."
        )
