"""Shared fixtures: a tiny random-weight causal LM (word-level tokenizer, chat template) and a tiny BERT encoder."""

from __future__ import annotations

import pytest

from benchval.testing.tiny import build_tiny_encoder, tiny_llama

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|> {% endif %}"
)
WORDS = (
    "because he she it is was a an the of in on to and not born died citizen country germany france "
    "uk visa travel need why could couldn't wouldn't attend before after year yes no answer question "
    "berlin paris team rider race member person event city capital correct reference unrelated"
).split()


def build_tiny_lm(folder, chat_template: str | None = CHAT_TEMPLATE, seed: int = 0):
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    specials = ["<pad>", "<unk>", "<s>", "</s>", "<|user|>", "<|system|>", "<|assistant|>", "<|end|>"]
    vocab = {t: i for i, t in enumerate([*specials, *WORDS, ".", ",", "?", ":", "'"])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens(specials)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="</s>"
    )
    if chat_template:
        fast.chat_template = chat_template
    fast.save_pretrained(folder)
    special_ids = (vocab["<s>"], vocab["</s>"], vocab["<pad>"])
    tiny_llama(len(vocab), seed, heads=2, max_positions=256, special_ids=special_ids).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_lm_dir(tmp_path_factory):
    return str(build_tiny_lm(tmp_path_factory.mktemp("tiny_lm")))


@pytest.fixture(scope="session")
def tiny_generator(tiny_lm_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from benchval.generation.hf import HFGenerator

    model = AutoModelForCausalLM.from_pretrained(tiny_lm_dir)
    return HFGenerator(model, AutoTokenizer.from_pretrained(tiny_lm_dir), name="tiny", batch_size=4)


@pytest.fixture(scope="session")
def tiny_lm_builder():
    """The builder itself, for tests that need a variant (e.g. no chat template)."""
    return build_tiny_lm


@pytest.fixture(scope="session")
def tiny_encoder(tmp_path_factory):
    """A random-weight 2-layer BERT with a word-level tokenizer, saved as a transformers folder."""
    words = "because he she is was a the of in born citizen germany france cat dog sat".split()
    return build_tiny_encoder(tmp_path_factory.mktemp("encoder"), words)
