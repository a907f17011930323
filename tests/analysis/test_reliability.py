"""Task reliability and its correlation ceiling (benchval.analysis.reliability), against hand-computed cases."""

import numpy as np
import pandas as pd
import pytest

from benchval.analysis.reliability import (
    ItemResults,
    add_ceiling,
    binomial_variance,
    bootstrap_variances,
    classical_reliability,
    split_half,
    task_row,
)
from benchval.evaluation.item_bootstrap import item_rng

SETTINGS = {"seed": 7, "n_bootstrap": 4000, "min_models": 3, "n_splits": 50}


def test_binomial_reliability_by_hand():
    # scores .5 .6 .7 on 100 items: variances .0025 .0024 .0021 (mean .002333...), S^2 = .01
    values, note = classical_reliability(np.array([0.5, 0.6, 0.7]), binomial_variance([0.5, 0.6, 0.7], 100))
    assert note == ""
    assert values["observed_var"] == pytest.approx(0.01)
    assert values["mean_sampling_var"] == pytest.approx(0.07 / 30)
    assert values["between_var"] == pytest.approx(0.01 - 0.07 / 30)
    assert values["reliability"] == pytest.approx(1 - 0.07 / 0.3)


def test_noise_larger_than_spread_is_clipped_and_said():
    values, note = classical_reliability(np.array([0.50, 0.51, 0.52]), binomial_variance([0.50, 0.51, 0.52], 24))
    assert values["reliability"] == 0.0 and "exceeds" in note
    values, note = classical_reliability(np.array([0.5, 0.5, 0.5]), np.full(3, 0.01))
    assert np.isnan(values["reliability"]) and "constant" in note


def test_missing_item_count_gives_missing_reliability_with_reason():
    row = task_row("accuracy", "t", "downstream", pd.Series([0.4, 0.6, 0.7]), None, None, SETTINGS)
    assert np.isnan(row["reliability"]) and row["variance_source"] == "none" and "n_items" in row["note"]


def test_item_bootstrap_variance_of_accuracy_is_the_binomial_one():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, 200)
    predictions = {"m": np.where(rng.random(200) < 0.7, labels, 1 - labels)}
    p = np.mean(predictions["m"] == labels)
    variance = bootstrap_variances("accuracy", ItemResults(labels, predictions), ["m"], 1, 20000, "t")[0]
    assert variance == pytest.approx(p * (1 - p) / 200, rel=0.05)  # 20,000 resamples: ~1% error


def test_split_half_equals_a_direct_computation():
    rng = np.random.default_rng(1)
    ability = np.array([0.3, 0.5, 0.6, 0.8])
    labels = np.zeros(40, dtype=int)
    predictions = {f"m{i}": (rng.random(40) > a).astype(int) for i, a in enumerate(ability)}  # correct when 0
    results = ItemResults(labels, predictions)
    models = list(predictions)
    got = split_half("accuracy", results, models, item_rng(3, "s"), 5)
    direct, split_rng = [], item_rng(3, "s")
    for _ in range(5):
        first = split_rng.permutation(40)[:20]
        mask = np.zeros(40, bool)
        mask[first] = True
        a = [np.mean(predictions[m][mask] == 0) for m in models]
        b = [np.mean(predictions[m][~mask] == 0) for m in models]
        r = np.corrcoef(a, b)[0, 1]
        direct.append(2 * r / (1 + r))
    assert got == pytest.approx(np.mean(direct))


def test_split_half_needs_enough_models():
    results = ItemResults(np.zeros(10, int), {"a": np.zeros(10, int), "b": np.ones(10, int)})
    row = task_row("accuracy", "t", "cs_original", pd.Series({"a": 1.0, "b": 0.0}), results, None, SETTINGS)
    assert np.isnan(row["split_half"]) and "min_models=3" in row["note"] and row["variance_source"] == "item_bootstrap"


def test_ceiling_is_the_root_of_the_product_and_flags_the_bar():
    reliability = pd.DataFrame(
        {"metric": ["accuracy"] * 3, "task": ["x", "y", "z"], "reliability": [0.81, 0.25, np.nan]}
    )
    table = pd.DataFrame({"metric": ["accuracy"] * 2, "benchmark": ["x", "x"], "downstream": ["y", "z"]})
    out = add_ceiling(table, reliability, ("benchmark", "downstream"), bar=0.5)
    assert out["ceiling"].iloc[0] == pytest.approx(0.45)
    assert out["ceiling_below_bar"].iloc[0] is True and out["ceiling_below_bar"].iloc[1] is None
    assert np.isnan(out["ceiling"].iloc[1])
