"""Deterministic greedy generation with a local causal LM (a prepared benchval model or any HF folder)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import torch

from benchval.generation.prompts import Messages, cut_answer, plain_text  # noqa: F401 (cut_answer re-exported)
from benchval.models.loader import load_prepared
from benchval.models.placement import Placement, input_device

log = logging.getLogger(__name__)


def decide_chat(tokenizer, use_chat_template: str | bool) -> bool:
    """'auto' -> whether the tokenizer has a chat template; True/False force it (True needs one)."""
    has_template = bool(getattr(tokenizer, "chat_template", None))
    if use_chat_template == "auto":
        return has_template
    if use_chat_template and not has_template:
        raise ValueError("use_chat_template is true but the tokenizer has no chat template")
    return bool(use_chat_template)


class HFGenerator:
    """Batched greedy decoding (left padding, no sampling) with a causal LM and its tokenizer."""

    def __init__(self, model, tokenizer, name: str = "hf", use_chat_template: str | bool = "auto", batch_size: int = 8):
        self.model, self.tokenizer, self.name = model.eval(), tokenizer, name
        self.batch_size = int(batch_size)
        self.chat = decide_chat(tokenizer, use_chat_template)
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        self.device = input_device(model)  # the first layer's (a model may span several devices)

    @classmethod
    def from_prepared(
        cls,
        model_dir: str | Path,
        name: str | None = None,
        device: str = "cpu",
        dtype: str = "float32",
        placement: Placement | None = None,
        **kwargs,
    ) -> "HFGenerator":
        """Load a prepared model folder (resources/models/{model}/) with the model backend, benchval.models.loader.

        `placement` (e.g. ``Placement.from_model_entry(entry)``: several GPUs) replaces `device` and `dtype`."""
        model, tokenizer = load_prepared(model_dir, placement=placement or Placement(device, dtype))
        return cls(model, tokenizer, name=name or Path(model_dir).name, **kwargs)

    def render(self, messages: Messages) -> str:
        """Model input text: the chat template with a generation prompt, or the plain text."""
        if self.chat:
            return self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return plain_text(messages)

    def _encode(self, texts: Sequence[str]) -> dict[str, torch.Tensor]:
        """Left-padded batch. Chat-rendered text already holds its special tokens."""
        self.tokenizer.padding_side = "left"
        batch = self.tokenizer(list(texts), return_tensors="pt", padding=True, add_special_tokens=not self.chat)
        return {k: v.to(self.device) for k, v in batch.items() if k in ("input_ids", "attention_mask")}

    @torch.inference_mode()
    def generate(self, prompts: Sequence[Messages], max_new_tokens: int, first_line: bool = True) -> list[str]:
        """Greedy continuations of each conversation (batched); by default only their first line."""
        outputs: list[str] = []
        for start in range(0, len(prompts), self.batch_size):
            texts = [self.render(m) for m in prompts[start : start + self.batch_size]]
            batch = self._encode(texts)
            # a base model (plain text) is stopped at the end of its line: only that line is kept
            stop = {} if self.chat or not first_line else {"stop_strings": ["\n"], "tokenizer": self.tokenizer}
            generated = self.model.generate(
                **batch,
                max_new_tokens=int(max_new_tokens),
                do_sample=False,
                num_beams=1,
                temperature=None,
                top_p=None,
                top_k=None,
                pad_token_id=self.tokenizer.pad_token_id,
                **stop,
            )
            new_tokens = generated[:, batch["input_ids"].shape[1] :]
            decoded = self.tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
            outputs.extend(cut_answer(text) if first_line else text.strip() for text in decoded)
        return outputs

    @torch.inference_mode()
    def first_token_choice(self, prompts: Sequence[Messages], options: Sequence[str]) -> list[dict[str, float]]:
        """Log-probability of each option's first token as the next token after each prompt.

        For the chat template the options are scored as written; for plain text with a leading
        space. Raises when two options share their first token (the choice would be undefined).
        """
        first_ids = self.first_token_ids(options)
        # prompts of similar length batched together (less padding); the output layer only at the last
        # position (logits_to_keep=1: the vocabulary projection of every other position is not needed)
        texts = [self.render(m) for m in prompts]
        lengths = [len(ids) for ids in self.tokenizer(texts, add_special_tokens=not self.chat)["input_ids"]]
        order = sorted(range(len(texts)), key=lambda i: lengths[i])
        results: list[dict[str, float] | None] = [None] * len(texts)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            batch = self._encode([texts[i] for i in chunk])
            logits = self.model(**batch, logits_to_keep=1).logits[:, -1, :].float()
            logprobs = torch.log_softmax(logits, dim=-1)[:, first_ids]
            for i, row in zip(chunk, logprobs):
                results[i] = dict(zip(options, row.tolist()))
        return results

    def first_token_ids(self, options: Sequence[str]) -> list[int]:
        """Each option's first token id as the model would write it next (chat: as written; plain text:
        after a space). Raises when two options share their first token (the choice would be undefined)."""
        prefix = "" if self.chat else " "
        first_ids = [self.tokenizer(prefix + o, add_special_tokens=False)["input_ids"][0] for o in options]
        if len(set(first_ids)) != len(first_ids):
            raise ValueError(f"options {list(options)} share a first token; use decision: generate")
        return first_ids

    def prompt_ids(self, prompts: Sequence[Messages]) -> list[list[int]]:
        """The token ids the model reads for each conversation (as :meth:`first_token_choice` feeds them)."""
        texts = [self.render(m) for m in prompts]
        return self.tokenizer(texts, add_special_tokens=not self.chat)["input_ids"]
