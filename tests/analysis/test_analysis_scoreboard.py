"""The scoreboard rows of one (model, task): recomputed predictions, item-bootstrap CI, chance levels."""

import numpy as np
import pandas as pd
import pytest

from benchval.analysis.scoreboard import ModelInfo, ScoreboardSettings, model_task_rows
from benchval.analysis.chance import chance_macro_f1

ITEMS = pd.DataFrame(
    {"id": list("abcdef"), "options": [[" x", " y"]] * 4 + [[" x", " y", " z"]] * 2, "label": [0, 1, 1, 0, 2, 1]}
)
# the model prefers option 0 everywhere except item c (option 1) and item e (option 2): 4 of 6 correct
PREFERRED = {"a": 0, "b": 0, "c": 1, "d": 0, "e": 2, "f": 0}
SCORES = pd.DataFrame(
    [
        {
            "item_id": i,
            "option_index": k,
            "kind": "option",
            "continuation": o,
            "logprob_sum": -1.0 if k == PREFERRED[i] else -3.0,
            "n_tokens": 1,
            "n_chars": 2,
            "n_bytes": 2,
        }
        for i, options in zip(ITEMS["id"], ITEMS["options"])
        for k, o in enumerate(options)
    ]
)
META = {"task": "t", "role": "downstream", "metrics": ["accuracy", "macro_f1"], "scoring_mode": "mc"}
SETTINGS = ScoreboardSettings(seed=1, n_bootstrap=300, ci_level=0.95, normalisation="per_token")
MODEL = ModelInfo("m", "fam", 0.1)
TASK = {"name": "t", "label": "Task T", "role": "downstream"}


def reported(accuracy, macro_f1):
    return pd.DataFrame({"metric": ["accuracy", "macro_f1"], "value": [accuracy, macro_f1], "note": ["", ""]})


def test_rows_carry_value_ci_and_chance():
    # predictions 0,0,1,0,2,0 vs labels 0,1,1,0,2,1: F1 class0 = 2*2/(2+4), class1 = 2*1/(3+1), class2 = 1
    macro = (4 / 6 + 2 / 4 + 1) / 3
    rows = {r["metric"]: r for r in model_task_rows(MODEL, TASK, ITEMS, SCORES, META, reported(4 / 6, macro), SETTINGS)}
    accuracy = rows["accuracy"]
    assert accuracy["value"] == pytest.approx(4 / 6)
    assert accuracy["chance"] == pytest.approx((4 * 1 / 2 + 2 * 1 / 3) / 6)
    assert accuracy["ci_low"] <= accuracy["value"] <= accuracy["ci_high"]
    assert accuracy["n_items"] == 6 and accuracy["n_boot_valid"] == 300
    expected_chance, bound = chance_macro_f1(ITEMS["label"].to_numpy(), np.array([2, 2, 2, 2, 3, 3]))
    assert rows["macro_f1"]["chance"] == pytest.approx(expected_chance) and bound == 0.0
    assert rows["macro_f1"]["value"] == pytest.approx(macro)
    assert rows["accuracy"]["label"] == "Task T" and rows["accuracy"]["family"] == "fam"


def test_models_of_a_task_share_resamples():
    first = model_task_rows(MODEL, TASK, ITEMS, SCORES, META, reported(4 / 6, (4 / 6 + 2 / 4 + 1) / 3), SETTINGS)
    other = model_task_rows(
        ModelInfo("n", "fam", 0.2), TASK, ITEMS, SCORES, META, reported(4 / 6, (4 / 6 + 2 / 4 + 1) / 3), SETTINGS
    )
    assert [(r["ci_low"], r["ci_high"]) for r in first] == [(r["ci_low"], r["ci_high"]) for r in other]


def test_reported_value_out_of_step_with_scores_is_an_error():
    with pytest.raises(ValueError, match="metrics.csv.*differs from.*rerun rule evaluate"):
        model_task_rows(MODEL, TASK, ITEMS, SCORES, META, reported(0.5, 0.5), SETTINGS, source="metrics.csv")


def test_unavailable_task_is_missing_with_its_reason():
    meta = {**META, "unavailable": "needs the Hugging Face Hub"}
    empty = ITEMS.iloc[0:0]
    rows = model_task_rows(MODEL, TASK, empty, SCORES.iloc[0:0], meta, reported(np.nan, np.nan), SETTINGS)
    assert len(rows) == 2 and all(np.isnan(r["value"]) for r in rows)
    assert rows[0]["note"] == "task unavailable: needs the Hugging Face Hub"
