"""Context/continuation token boundaries (lm-evaluation-harness 0.4.13 rules)."""

import pytest
from scoring_fixtures import make_tokenizer

from benchval.scoring.tokens import RequestEncoder, TokenizationError, leading_special_ids


@pytest.fixture(scope="module")
def tokenizers():
    return {"nobos": make_tokenizer(False), "bos": make_tokenizer(True)}


def test_leading_special_ids(tokenizers):
    assert leading_special_ids(tokenizers["nobos"]) == ()
    assert leading_special_ids(tokenizers["bos"]) == (tokenizers["bos"].bos_token_id,)


@pytest.mark.parametrize("name", ["nobos", "bos"])
def test_continuation_is_the_joint_tokenisation_after_the_context(name, tokenizers):
    tok = tokenizers[name]
    e = RequestEncoder(tok).encode("The cats are sleeping", " on the warm mat")
    whole = tok.encode("The cats are sleeping on the warm mat")
    assert list(e.context_ids + e.continuation_ids) == whole
    assert list(e.context_ids) == tok.encode("The cats are sleeping")
    assert tok.decode(list(e.continuation_ids)) == " on the warm mat"
    assert not e.boundary_fallback
    if name == "bos":
        assert e.context_ids[0] == tok.bos_token_id


@pytest.mark.parametrize("name", ["nobos", "bos"])
def test_empty_context_conditions_on_bos(name, tokenizers):
    tok = tokenizers[name]
    e = RequestEncoder(tok).encode("", "The dogs play outside.")
    assert e.context_ids == (tok.bos_token_id,)
    assert list(e.continuation_ids) == tok.encode("The dogs play outside.", add_special_tokens=False)


def test_empty_context_falls_back_to_eos_without_bos(tokenizers):
    tok = make_tokenizer(False)
    tok.bos_token = None
    e = RequestEncoder(tok).encode("", " yes")
    assert e.context_ids == (tok.eos_token_id,)


def test_trailing_context_space_moves_to_the_continuation(tokenizers):
    enc = RequestEncoder(tokenizers["nobos"])
    assert enc.encode("The cats", " are") == enc.encode("The cats ", "are")


def test_boundary_fallback_when_a_token_spans_the_boundary(tokenizers):
    tok = tokenizers["bos"]
    # "cat" + "s" merges into the token " cats": the joint tokenisation does not start with the context's.
    assert tok.tokenize("The cats") != tok.tokenize("The cat") + tok.tokenize("s")
    e = RequestEncoder(tok).encode("The cat", "s are sleeping")
    assert e.boundary_fallback
    assert list(e.context_ids + e.continuation_ids) == tok.encode("The cats are sleeping")
    assert list(e.context_ids) == tok.encode("The")  # the longest common prefix with encode("The cat")


def test_continuation_without_tokens_is_an_error(tokenizers):
    with pytest.raises(TokenizationError, match="request 'r1'"):
        RequestEncoder(tokenizers["nobos"]).encode("The cats", "", name="request 'r1'")
