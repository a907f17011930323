"""Fast engine vs naive reference on the prepared real models (SmolLM2, Gemma 3, Qwen 2.5) and HellaSwag.

Slow; skipped when a model is not prepared (resources/models/<name>/benchval-model.json) or the raw
data mirror is absent.
"""

import numpy as np
import pytest

from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.requests import build_requests
from benchval.models.loader import load_model

pytestmark = pytest.mark.slow
MODELS = ["smollm2-135m", "gemma3-270m", "qwen2.5-coder-0.5b"]


@pytest.fixture(scope="module")
def hellaswag_items():
    import sys

    mirror = default_mirror()
    path = mirror / "hellaswag" / "hellaswag_val.jsonl" if mirror else None
    if path is None or not path.exists():
        pytest.skip("raw-data mirror with hellaswag/hellaswag_val.jsonl absent")
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    from bench_scoring import hellaswag_items as build

    items = build(path, 6)
    items.loc[5, "context"] = "The cat"  # a boundary fallback: " cat" + "s" is one token in these vocabularies
    items.at[5, "options"] = ["s are sleeping.", " is asleep."]
    items.loc[5, "label"] = 0
    return items


@pytest.mark.parametrize("name", MODELS)
def test_fast_equals_reference_on_a_real_model(name, hellaswag_items):
    folder = REPO_ROOT / "resources" / "models" / name
    if not (folder / "benchval-model.json").exists():
        pytest.skip(f"{name} not prepared ({folder})")
    model, tok = load_model(folder)
    requests = build_requests(hellaswag_items, "mc")
    ref = make_scorer("reference", model, tok).score(requests)
    fast_scorer = make_scorer("fast", model, tok)
    fast = fast_scorer.score(requests)
    assert (fast["n_tokens"] == ref["n_tokens"]).all()
    assert np.max(np.abs(fast["logprob_sum"] - ref["logprob_sum"])) <= 1e-4
    assert (fast["is_greedy"] == ref["is_greedy"]).all()
    assert fast_scorer.stats.boundary_fallbacks >= 1
