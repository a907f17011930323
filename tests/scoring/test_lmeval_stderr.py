"""Standard errors in the lm-eval-style results, as lm-evaluation-harness defines them."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from benchval.evaluation.evaluate import lmeval_results
from benchval.evaluation.item_bootstrap import item_rng
from benchval.evaluation.lmeval_format import lmeval_stderr, stderr_key


def test_stderr_keys_follow_lm_eval():
    assert stderr_key("acc,none") == "acc_stderr,none"
    assert stderr_key("f1,none") == "f1_stderr,none"


def test_accuracy_stderr_is_sample_sd_over_sqrt_n():
    # 3 of 5 correct: sample variance 0.3, stderr sqrt(0.3 / 5) = sqrt(p (1 - p) / (n - 1)) = sqrt(0.06)
    labels, predictions = np.array([0, 1, 2, 0, 1]), np.array([0, 1, 2, 1, 0])
    value = lmeval_stderr("accuracy", labels, predictions, item_rng(1, "x"), 1000)
    assert value == pytest.approx(np.sqrt(0.06), abs=1e-15)


def test_macro_f1_stderr_is_sd_of_bootstrap_replicates_computed_by_sklearn():
    rng = np.random.default_rng(4)
    labels, predictions = rng.integers(0, 3, 40), rng.integers(0, 3, 40)
    value = lmeval_stderr("macro_f1", labels, predictions, item_rng(9, "t"), 200)
    draws = item_rng(9, "t").integers(0, 40, size=(200, 40))
    replicates = [f1_score(labels[row], predictions[row], average="macro", zero_division=0) for row in draws]
    assert value == pytest.approx(np.std(replicates, ddof=1), abs=1e-12)


def test_not_available_as_lm_eval_writes_it():
    one = np.array([1])
    assert lmeval_stderr("accuracy", one, one, item_rng(1), 100) == "N/A"
    assert lmeval_stderr("macro_f1", np.array([0, 1]), np.array([0, 0]), item_rng(1), 0) == "N/A"


def test_results_json_carries_stderr_beside_each_metric():
    rows = pd.DataFrame(
        {
            "model": "m",
            "task": "t",
            "metric": ["accuracy", "macro_f1"],
            "value": [0.6, 0.5],
            "n_items": 5,
            "normalisation": "per_token",
            "note": "",
        }
    )
    predictions = pd.DataFrame({"id": list("abcde"), "label": [0, 1, 2, 0, 1], "prediction": [0, 1, 2, 1, 0]})
    meta = {"task": "t", "scoring_mode": "mc", "n_raw": 5}
    results = lmeval_results(rows, meta, "m", {}, predictions, {"seed": 3, "bootstrap_iters": 50})["results"]["t"]
    assert results["accuracy_stderr,none"] == pytest.approx(np.sqrt(0.06))
    assert isinstance(results["macro_f1_stderr,none"], float) and results["macro_f1_stderr,none"] > 0
    assert list(results) == ["alias", "accuracy,none", "accuracy_stderr,none", "macro_f1,none", "macro_f1_stderr,none"]
