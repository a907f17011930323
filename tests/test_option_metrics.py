"""Predictions, normalisations, calibration and metrics on hand-computed cases."""

import math

import numpy as np
import pandas as pd
import pytest

from benchval.evaluation import metrics


def scores_frame(rows):
    columns = ["item_id", "option_index", "kind", "continuation", "logprob_sum", "n_tokens", "n_chars", "n_bytes"]
    return pd.DataFrame(rows, columns=columns)


ITEMS = pd.DataFrame({"id": ["a", "b"], "options": [[" x", " yy"], [" x", " yy"]], "label": [1, 0]})
SCORES = scores_frame(
    [
        ["a", 0, "option", " x", -2.0, 1, 2, 2],
        ["a", 1, "option", " yy", -3.0, 2, 3, 3],  # sum prefers 0, per_token (-1.5 vs -2) prefers 1
        ["b", 0, "option", " x", -1.0, 1, 2, 2],
        ["b", 1, "option", " yy", -4.0, 2, 3, 3],
    ]
)


def test_sum_and_per_token_normalisation_choose_differently():
    by_sum = metrics.predict(ITEMS, SCORES, "mc", "sum")
    by_token = metrics.predict(ITEMS, SCORES, "mc", "per_token")
    assert by_sum["prediction"].tolist() == [0, 0]
    assert by_token["prediction"].tolist() == [1, 0]
    assert metrics.compute_metrics(by_token, ["accuracy"]) == {"accuracy": 1.0}
    assert metrics.compute_metrics(by_sum, ["accuracy"]) == {"accuracy": 0.5}


def test_per_byte_counts_utf8_bytes():
    frame = scores_frame([["a", 0, "option", " é", -3.0, 1, 2, 3]])
    assert metrics.normalised_logprob(frame, "per_byte").iloc[0] == pytest.approx(-1.0)
    assert metrics.normalised_logprob(frame, "per_char").iloc[0] == pytest.approx(-1.5)


def test_calibration_subtracts_the_na_prior_of_each_label():
    # Eq. 1: log p(y|x) - log p(y|N/A). Raw scores prefer " yy"; its prior is much higher, so " x" wins.
    frame = scores_frame(
        [
            ["a", 0, "option", " x", -5.0, 1, 2, 2],
            ["a", 1, "option", " yy", -4.0, 1, 3, 3],
            ["", -1, "prior", " x", -9.0, 1, 2, 2],
            ["", -1, "prior", " yy", -1.0, 1, 3, 3],
        ]
    )
    per_option = metrics.option_scores(frame, "calibrated", "sum")
    assert per_option["score"].tolist() == [4.0, -3.0]
    items = pd.DataFrame({"id": ["a"], "options": [[" x", " yy"]], "label": [0]})
    assert metrics.predict(items, frame, "calibrated", "sum")["prediction"].tolist() == [0]


def test_calibrated_scores_without_priors_fail_clearly():
    with pytest.raises(ValueError, match="N/A priors"):
        metrics.option_scores(SCORES, "calibrated", "sum")


def test_missing_option_scores_are_an_error_not_a_silent_gap():
    with pytest.raises(ValueError, match="1 options unscored"):
        metrics.predict(ITEMS, SCORES.iloc[:3], "mc", "sum")


def test_macro_f1_matches_a_hand_computation():
    predictions = pd.DataFrame({"id": list("abcd"), "label": [0, 0, 1, 1], "prediction": [0, 1, 1, 1]})
    # class 0: P=1, R=.5, F1=2/3; class 1: P=2/3, R=1, F1=.8 -> macro = (2/3 + .8) / 2
    result = metrics.compute_metrics(predictions, ["accuracy", "macro_f1"])
    assert result["accuracy"] == 0.75
    assert result["macro_f1"] == pytest.approx((2 / 3 + 0.8) / 2)


def test_ties_go_to_the_lower_option_index():
    frame = scores_frame([["a", 0, "option", " x", -1.0, 1, 2, 2], ["a", 1, "option", " y", -1.0, 1, 2, 2]])
    items = pd.DataFrame({"id": ["a"], "options": [[" x", " y"]], "label": [1]})
    assert metrics.predict(items, frame, "mc", "sum")["prediction"].tolist() == [0]


def test_empty_predictions_give_nan_not_a_number():
    empty = pd.DataFrame(columns=["id", "label", "prediction"])
    assert all(math.isnan(v) for v in metrics.compute_metrics(empty, ["accuracy", "macro_f1"]).values())


def test_chance_accuracy():
    items = pd.DataFrame({"options": [["a", "b"], ["a", "b", "c", "d"]]})
    assert metrics.chance_accuracy(items) == pytest.approx(np.mean([0.5, 0.25]))


def test_the_calibration_step_writes_the_scores_the_prediction_takes_the_argmax_of(tmp_path):
    import json

    from benchval.evaluation.calibrate import calibrate_files

    frame = scores_frame(
        [
            ["a", 0, "option", " x", -5.0, 1, 2, 2],
            ["a", 1, "option", " yy", -4.0, 1, 3, 3],
            ["", -1, "prior", " x", -9.0, 1, 2, 2],
            ["", -1, "prior", " yy", -1.0, 1, 3, 3],
        ]
    )
    frame.to_parquet(tmp_path / "scores.parquet")
    (tmp_path / "meta.json").write_text(json.dumps({"task": "t", "scoring_mode": "calibrated", "unavailable": None}))
    assert calibrate_files(tmp_path / "scores.parquet", tmp_path / "meta.json", "sum", tmp_path / "out.parquet") == 2
    calibrated = pd.read_parquet(tmp_path / "out.parquet")
    assert calibrated.to_dict("list") == {"item_id": ["a", "a"], "option_index": [0, 1], "score": [4.0, -3.0]}
    items = pd.DataFrame({"id": ["a"], "options": [[" x", " yy"]], "label": [0]})
    assert metrics.predict_from_option_scores(items, calibrated).equals(
        metrics.predict(items, frame, "calibrated", "sum")
    )
    (tmp_path / "meta.json").write_text(json.dumps({"task": "t", "scoring_mode": "mc", "unavailable": "no data here"}))
    assert calibrate_files(tmp_path / "scores.parquet", tmp_path / "meta.json", "sum", tmp_path / "none.parquet") == 0
