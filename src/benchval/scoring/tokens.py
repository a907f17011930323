"""Exact context/continuation token boundaries, as lm-evaluation-harness 0.4.13 (HFLM) draws them.

For a request (context, continuation):

- trailing whitespace of the context moves to the continuation;
- empty context: the continuation is encoded alone and conditioned on the prefix token (BOS, else
  EOS); if the continuation already starts with that token, it becomes the context;
- otherwise ``whole = encode(context + continuation)`` and ``ctx = encode(context)``, both with the
  tokenizer's leading special tokens (a BOS-adding tokenizer such as Gemma's puts BOS in the context).
  When ``whole`` starts with ``ctx`` the continuation tokens are ``whole[len(ctx):]``.

Where the joint tokenisation does not start with the context's tokens (a token spans the boundary)
lm-evaluation-harness would feed ``ctx + whole[len(ctx):]``, a sequence that is not the text's
tokenisation. We instead score the joint tokenisation itself: the context part is the longest common
prefix of ``whole`` and ``ctx`` and the continuation is the rest of ``whole``. Such requests are
flagged ``boundary_fallback`` so that the fast engine computes them in full, on their own, and so
that their number is reported.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


class TokenizationError(ValueError):
    """A request whose tokens cannot be scored; the message names the request."""


@dataclass(frozen=True)
class EncodedRequest:
    """Token ids of one request: the continuation is scored conditioned on the context ids."""

    context_ids: tuple[int, ...]
    continuation_ids: tuple[int, ...]
    boundary_fallback: bool = False

    @property
    def length(self) -> int:
        return len(self.context_ids) + len(self.continuation_ids)


def prefix_token_id(tokenizer) -> int:
    """The token an empty context is replaced by: BOS, else EOS (as lm-evaluation-harness)."""
    for token_id in (tokenizer.bos_token_id, tokenizer.eos_token_id):
        if token_id is not None:
            return int(token_id)
    raise TokenizationError(f"tokenizer {type(tokenizer).__name__} has neither a BOS nor an EOS token")


def leading_special_ids(tokenizer) -> tuple[int, ...]:
    """Special tokens the tokenizer puts before any text by default (e.g. Gemma's BOS); trailing ones
    (an appended EOS) are never part of a context or a continuation."""
    probe = "a"
    plain = tokenizer.encode(probe, add_special_tokens=False)
    full = tokenizer.encode(probe)
    for start in range(len(full) - len(plain) + 1):
        if full[start : start + len(plain)] == plain:
            return tuple(full[:start])
    raise TokenizationError(f"cannot find the text tokens of {probe!r} in {full} (plain {plain})")


def _common_prefix_length(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


class RequestEncoder:
    """Encodes requests for one tokenizer; contexts are encoded once and reused."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.lead = list(leading_special_ids(tokenizer))
        self.prefix_id = prefix_token_id(tokenizer)
        self._context_cache: dict[str, list[int]] = {}

    def _encode(self, text: str) -> list[int]:
        return self.lead + self.tokenizer.encode(text, add_special_tokens=False)

    def _encode_context(self, text: str) -> list[int]:
        if text not in self._context_cache:
            self._context_cache[text] = self._encode(text)
        return self._context_cache[text]

    def encode(self, context: str, continuation: str, name: str = "request") -> EncodedRequest:
        n_spaces = len(context) - len(context.rstrip())
        if n_spaces:
            context, continuation = context[:-n_spaces], context[-n_spaces:] + continuation
        if context == "":
            cont = self.tokenizer.encode(continuation, add_special_tokens=False)
            if cont and cont[0] == self.prefix_id:
                encoded = EncodedRequest(tuple(cont[:1]), tuple(cont[1:]))
            else:
                encoded = EncodedRequest((self.prefix_id,), tuple(cont))
        else:
            whole = self._encode(context + continuation)
            ctx = self._encode_context(context)
            if whole[: len(ctx)] == ctx:
                encoded = EncodedRequest(tuple(ctx), tuple(whole[len(ctx) :]))
            else:
                k = _common_prefix_length(whole, ctx)
                head = whole[:k] if k else [self.prefix_id]
                encoded = EncodedRequest(tuple(head), tuple(whole[k:]), boundary_fallback=True)
        if not encoded.continuation_ids:
            raise TokenizationError(
                f"{name}: continuation {continuation!r} has no tokens after context {context[-40:]!r}"
            )
        return encoded

    def encode_frame(self, requests: pd.DataFrame) -> list[EncodedRequest]:
        """Encode every row of a requests table (columns request_id, context, continuation)."""
        return [
            self.encode(ctx, cont, name=f"request {rid!r}")
            for rid, ctx, cont in zip(requests["request_id"], requests["context"], requests["continuation"])
        ]
