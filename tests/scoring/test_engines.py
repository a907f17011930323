"""The fast engine equals the naive one-pair-per-forward reference, for several tokenizers and modes."""

import numpy as np
import pandas as pd
import pytest
import torch
from scoring_fixtures import make_items

from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.requests import build_requests

MODELS = ["llama_nobos", "llama_bos", "gemma_sliding"]
MODES = ["mc", "partial", "minimal_pair", "calibrated"]
TOL = 1e-4


def _manual_logprobs(model, context_ids, continuation_ids):
    """Hand computation: full sequence through the model, float64 log-softmax, read the continuation."""
    ids = torch.tensor([list(context_ids) + list(continuation_ids)])
    with torch.no_grad():
        logits = model(input_ids=ids).logits[0].double()
    logprobs = torch.log_softmax(logits, dim=-1)
    n = len(context_ids)
    return np.array([logprobs[n - 1 + j, t].item() for j, t in enumerate(continuation_ids)])


def lm_eval_token_split(tok, context, continuation):
    """lm-evaluation-harness 0.4.13's context/continuation split, written out with the tokenizer
    itself (not our encoder): trailing context whitespace moves to the continuation; the continuation
    tokens are encode(context + continuation) after the len(encode(context)) context tokens.
    For non-empty contexts whose last token does not merge across the boundary."""
    stripped = context.rstrip()
    continuation = context[len(stripped) :] + continuation
    whole, ctx = tok.encode(stripped + continuation), tok.encode(stripped)
    assert stripped and whole[: len(ctx)] == ctx, (context, continuation)
    return ctx, whole[len(ctx) :]


@pytest.mark.parametrize("name", MODELS)
def test_reference_matches_a_hand_computation(name, loaded):
    model, tok = loaded[name]
    requests = build_requests(make_items("mc"), "mc")
    scores = make_scorer("reference", model, tok).score(requests)
    for row in scores.itertuples():
        context_ids, continuation_ids = lm_eval_token_split(tok, row.context, row.continuation)
        expected = _manual_logprobs(model, context_ids, continuation_ids)
        np.testing.assert_allclose(row.token_logprobs, expected, atol=1e-5)
        assert row.logprob_sum == pytest.approx(expected.sum(), abs=1e-4)
        assert row.n_tokens == len(tok.encode(row.continuation, add_special_tokens=False))
        assert row.n_chars == len(row.continuation) and row.n_bytes == len(row.continuation.encode())


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("mode", MODES + ["mc_suffix"])
def test_fast_equals_reference(name, mode, loaded):
    """``mc_suffix``: mc items, two of them with a shared suffix scored after each option."""
    model, tok = loaded[name]
    requests = build_requests(make_items(mode), "mc" if mode == "mc_suffix" else mode)
    if mode == "mc_suffix":
        assert requests["continuation"].str.endswith(" to let the fresh air into the room.").sum() == 3
    ref = make_scorer("reference", model, tok).score(requests)
    fast_scorer = make_scorer("fast", model, tok, batch_tokens=4096)
    fast = fast_scorer.score(requests)
    assert fast[["request_id", "n_tokens", "n_chars", "n_bytes"]].equals(
        ref[["request_id", "n_tokens", "n_chars", "n_bytes"]]
    )
    assert np.max(np.abs(fast["logprob_sum"] - ref["logprob_sum"])) <= TOL
    for a, b in zip(fast["token_logprobs"], ref["token_logprobs"]):
        assert a.dtype == np.float32 and np.max(np.abs(a - b)) <= TOL
    assert (fast["is_greedy"] == ref["is_greedy"]).all()
    # every context fed once: fewer forwards, and no more real tokens than unique ones
    assert fast_scorer.stats.real_tokens <= fast_scorer.stats.unique_tokens
    assert fast_scorer.stats.n_forward < len(requests)


def _greedy_tokens(model, ids, n):
    """n tokens of greedy decoding after ``ids``, by hand (argmax of each next-token distribution)."""
    ids = list(ids)
    for _ in range(n):
        with torch.no_grad():
            ids.append(int(model(input_ids=torch.tensor([ids])).logits[0, -1].argmax()))
    return ids[-n:]


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_greedy_flags_vary(engine, loaded):
    """is_greedy is true for the model's own greedy continuation (found by hand) and false otherwise."""
    model, tok = loaded["llama_nobos"]
    context = "The cats are sleeping on the warm mat while the"
    greedy = tok.decode(_greedy_tokens(model, tok.encode(context), 2))
    assert lm_eval_token_split(tok, context, greedy)[1] == _greedy_tokens(model, tok.encode(context), 2)
    options = [greedy, " dogs", " x"] if greedy != " dogs" else [greedy, " x"]
    requests = build_requests(pd.DataFrame([{"id": "g", "context": context, "options": options, "label": 0}]), "mc")
    scores = make_scorer(engine, model, tok).score(requests)
    expected = []
    for ctx, cont in zip(requests["context"], requests["continuation"]):
        context_ids, continuation_ids = lm_eval_token_split(tok, ctx, cont)
        with torch.no_grad():
            logits = model(input_ids=torch.tensor([context_ids + continuation_ids])).logits[0]
        n = len(context_ids)
        expected.append(all(logits[n - 1 + j].argmax().item() == t for j, t in enumerate(continuation_ids)))
    assert scores["is_greedy"].tolist() == expected
    assert expected[0] and not expected[-1]  # the greedy continuation is flagged, " x" is not


@pytest.mark.parametrize("name", MODELS)
def test_batch_of_one_equals_large_budget(name, loaded):
    model, tok = loaded[name]
    requests = build_requests(make_items("calibrated"), "calibrated")
    one = make_scorer("fast", model, tok, batch_tokens=1)
    big = make_scorer("fast", model, tok, batch_tokens=100_000)
    a, b = one.score(requests), big.score(requests)
    assert one.stats.n_forward == len(requests) and big.stats.n_forward == 1
    np.testing.assert_allclose(a["logprob_sum"], b["logprob_sum"], atol=1e-5, rtol=0)
    assert (a["is_greedy"] == b["is_greedy"]).all()


def test_boundary_fallback_is_exact_and_counted(loaded):
    model, tok = loaded["llama_bos"]
    items = pd.DataFrame(
        [
            {"id": "f0", "context": "The cat", "options": ["s are sleeping", " is here", "s"], "label": 0},
            {"id": "f1", "context": "We watched the sun", "options": ["set from the hill", " rise"], "label": 0},
        ]
    )
    requests = build_requests(items, "mc")
    fast_scorer = make_scorer("fast", model, tok)
    fast = fast_scorer.score(requests)
    ref = make_scorer("reference", model, tok).score(requests)
    flags = [e.boundary_fallback for e in fast_scorer.encoder.encode_frame(requests)]
    assert flags == [True, False, True, False, False]  # " cat" + "s" merge into " cats"; "sun|set" does not
    assert fast_scorer.stats.boundary_fallbacks == 2
    assert np.max(np.abs(fast["logprob_sum"] - ref["logprob_sum"])) <= TOL
    # the fallback scores the joint tokenisation: " cats are sleeping" after "The"
    assert fast.loc[0, "n_tokens"] == len(tok.encode("The cats are sleeping")) - len(tok.encode("The"))


def test_sliding_window_masks_matter(loaded):
    """Negative control: ignoring Gemma's sliding window changes the scores, so the test above checks it."""
    model, tok = loaded["gemma_sliding"]
    requests = build_requests(make_items("mc"), "mc")
    ref = make_scorer("reference", model, tok).score(requests)
    scorer = make_scorer("fast", model, tok)
    scorer.sliding_window = None
    assert np.max(np.abs(scorer.score(requests)["logprob_sum"] - ref["logprob_sum"])) > 1e-2


def test_out_of_memory_halves_the_budget_and_continues(loaded, monkeypatch):
    model, tok = loaded["llama_nobos"]
    requests = build_requests(make_items("mc"), "mc")
    expected = make_scorer("fast", model, tok, batch_tokens=4096).score(requests)
    scorer = make_scorer("fast", model, tok, batch_tokens=4096)
    real_forward, calls = scorer._forward, {"n": 0}

    def flaky_forward(rows, encoded, out):
        calls["n"] += 1
        if calls["n"] <= 2:
            raise torch.OutOfMemoryError("simulated CUDA out of memory")
        return real_forward(rows, encoded, out)

    monkeypatch.setattr(scorer, "_forward", flaky_forward)
    got = scorer.score(requests)
    assert scorer.batch_tokens == 1024 and scorer.stats.oom_halvings == 2
    np.testing.assert_allclose(got["logprob_sum"], expected["logprob_sum"], atol=1e-5, rtol=0)


def test_unknown_engine():
    with pytest.raises(ValueError, match="unknown scoring engine 'turbo'"):
        make_scorer("turbo", None, None)


@pytest.mark.parametrize("name", MODELS)
def test_reference_agrees_with_lm_evaluation_harness(name, loaded):
    """Same token boundaries and scores as lm-evaluation-harness 0.4.13's HFLM (the pyproject extra
    'bench', which install.sh installs: a missing lm_eval fails here instead of skipping)."""
    from lm_eval.api.instance import Instance
    from lm_eval.models.huggingface import HFLM

    model, tok = loaded[name]
    context = "The cats are sleeping on the warm mat while the"
    greedy = pd.DataFrame(
        [
            {
                "id": "g",
                "context": context,
                "label": 0,
                "options": [tok.decode(_greedy_tokens(model, tok.encode(context), 2)), " x"],
            }
        ]
    )
    requests = pd.concat(
        [
            build_requests(make_items("mc"), "mc"),
            build_requests(make_items("minimal_pair"), "minimal_pair"),
            build_requests(greedy, "mc"),
        ]
    )
    scorer = make_scorer("reference", model, tok)
    ours = scorer.score(requests)
    lm = HFLM(pretrained=model, tokenizer=tok, batch_size=4, device="cpu")
    their_tokens, score_tokens = [], lm._loglikelihood_tokens

    def recording(new_requests, **kwargs):  # lm-eval's own (context ids, continuation ids) per request
        their_tokens.extend((tuple(ctx), tuple(cont)) for _, ctx, cont in new_requests)
        return score_tokens(new_requests, **kwargs)

    lm._loglikelihood_tokens = recording
    pairs = list(zip(requests["context"], requests["continuation"]))
    theirs = lm.loglikelihood(
        [Instance("loglikelihood", {}, pair, i) for i, pair in enumerate(pairs)], disable_tqdm=True
    )
    assert [(e.context_ids, e.continuation_ids) for e in scorer.encoder.encode_frame(requests)] == their_tokens
    np.testing.assert_allclose(ours["logprob_sum"], [lp for lp, _ in theirs], atol=1e-4, rtol=0)
    assert ours["is_greedy"].tolist() == [g for _, g in theirs]
    assert ours["is_greedy"].any() and not ours["is_greedy"].all()
