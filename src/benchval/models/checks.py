"""Sanity checks of a loaded model: log-probability of a continuation given a context."""

from __future__ import annotations

import torch

PARIS_CONTEXT = "The capital of France is"
PARIS_GOOD, PARIS_BAD = " Paris", " banana"
PARIS_MIN_MARGIN = 14.0  # nats; every MODELS.md model passes (docs: /work/shared/MODELS.md)


@torch.inference_mode()
def continuation_logprob(model, tokenizer, context: str, continuation: str) -> float:
    """Sum of natural-log p(token) over the tokens of `continuation` after `context`.

    The context is tokenised with the tokenizer's special tokens (so BOS where it adds one),
    the continuation without; softmax in float32.
    """
    context_ids = tokenizer(context)["input_ids"]
    continuation_ids = tokenizer(continuation, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([context_ids + continuation_ids], device=model.device)
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
