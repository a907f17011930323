"""Shared fixtures: a tiny random-weight causal LM (word-level tokenizer, chat template) and a tiny BERT encoder."""

from __future__ import annotations

import pytest

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
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

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
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=256,
        bos_token_id=vocab["<s>"],
        eos_token_id=vocab["</s>"],
        pad_token_id=vocab["<pad>"],
    )
    LlamaForCausalLM(config).save_pretrained(folder)
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
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("encoder")
    words = "because he she is was a the of in born citizen germany france cat dog sat".split()
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )
    fast.model_max_length = 128
    fast.save_pretrained(folder)
    import torch

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    BertModel(config).save_pretrained(folder)
    return str(folder)
