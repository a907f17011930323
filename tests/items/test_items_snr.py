"""Signal, noise and SNR against a case computed by hand, and the SNR-validity relation's table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchval.items import snr

UNITS = pd.DataFrame(
    [[1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1], [0, 0, 0, 1]],
    index=["roberta-base-10M-1", "roberta-base-10M-2", "roberta-large", "bert-base-cased"],
    columns=["a", "b", "c", "d"],
    dtype=float,
)


def test_snr_by_hand():
    """Scores 0.5, 0.75, 1, 0.25: sd = sqrt(0.3125 / 3) = 0.32275. Item noise: the per-model variances
    of the item scores (ddof 1) 1/3, 1/4, 0, 1/4 over 4 items -> mean squared standard error 0.0520833,
    noise 0.22822. Seed noise: the one lineage with two seeds (0.5, 0.75) -> sd 0.17678. SNR over both
    noises: 0.32275 / sqrt(0.0520833 + 0.03125) = sqrt(1.25)."""
    row = snr.benchmark_snr(UNITS)
    assert row["signal"] == pytest.approx(np.sqrt(0.3125 / 3))
    assert row["noise_item"] == pytest.approx(np.sqrt(0.0520833333))
    assert row["noise_seed"] == pytest.approx(np.sqrt(0.03125))
    assert row["snr_item"] == pytest.approx(np.sqrt(2.0))
    assert row["snr"] == pytest.approx(np.sqrt(1.25))
    assert np.isnan(row["noise_checkpoint"]) and "checkpoint: the source has no checkpoints" in row["noise_missing"]
    assert row["noise_sources"] == "item;seed"
    # odd items (a, c): 0.5, 1, 1, 0; even (b, d): 0.5, 0.5, 1, 0.5 -> r = 0.1875 / sqrt(0.6875 * 0.1875)
    r = 0.1875 / np.sqrt(0.6875 * 0.1875)
    assert row["reliability"] == pytest.approx(2 * r / (1 + r))


def test_no_seed_noise_without_seeds():
    row = snr.benchmark_snr(UNITS.rename(index={"roberta-base-10M-2": "gpt2"}))
    assert np.isnan(row["noise_seed"]) and row["snr"] == pytest.approx(row["snr_item"])


def test_checkpoint_noise_and_decision_accuracy_by_hand():
    runs = pd.DataFrame(
        [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]],
        index=["x_10", "x_50", "x_best", "y_10", "y_50", "y_best"],
        dtype=float,
    )
    units = runs.groupby(lambda r: r.split("_")[0]).mean()
    row = snr.benchmark_snr(units, runs, {r: r.split("_")[0] for r in runs.index})
    # x: 0.5, 0.75 at _50 and _best; y: 1, 0 -> pooled sd sqrt((0.03125 + 0.5) / 2)
    assert row["noise_checkpoint"] == pytest.approx(np.sqrt((0.03125 + 0.5) / 2))
    assert row["decision_accuracy_10"] == pytest.approx(0.0)  # _10 puts y above x, _best x above y
    assert np.isnan(row["decision_accuracy_1"])  # no _1 checkpoint


def test_decision_accuracy_by_hand():
    final = pd.Series({"a": 1.0, "b": 3.0, "c": 2.0})
    assert snr.decision_accuracy(pd.Series({"a": 1.0, "b": 2.0, "c": 3.0}), final) == pytest.approx(2 / 3)
    assert snr.decision_accuracy(pd.Series({"a": 1.0, "b": 1.0, "c": 2.0}), final) == pytest.approx(1 / 2)


def test_relation_table():
    rng = np.random.default_rng(0)
    models = [f"m{i}" for i in range(12)]
    ability = rng.normal(size=12)
    units, rows = {}, {}
    for b, noise in enumerate((0.2, 0.6, 1.2, 2.5)):
        values = (
            rng.random((12, 200)) < 1 / (1 + np.exp(-(ability[:, None] + noise * rng.normal(size=(12, 1)))))
        ).astype(float)
        units[f"b{b}"] = pd.DataFrame(values, index=models)
        rows[f"b{b}"] = snr.benchmark_snr(units[f"b{b}"])
    table = pd.DataFrame.from_dict(rows, orient="index")
    criteria = pd.DataFrame({"c": ability + 0.3 * rng.normal(size=12)}, index=models)
    families = pd.Series([f"f{i // 2}" for i in range(12)], index=models)
    per_benchmark, relation = snr.snr_validity(table, units, criteria, families, np.random.default_rng(1), 200, 0.95)
    assert list(per_benchmark["benchmark"]) == ["b0", "b1", "b2", "b3"]
    assert (per_benchmark["snr_ci_low"] <= per_benchmark["snr_ci_high"]).all()
    assert (per_benchmark["validity_ci_low"] <= per_benchmark["validity"] + 1e-9).all()
    row = relation.set_index("relation").loc["snr vs validity"]
    assert row["n_benchmarks"] == 4 and -1 <= row["ci_low"] <= row["ci_high"] <= 1
    single, relation1 = snr.snr_validity(
        table.iloc[:1], {"b0": units["b0"]}, criteria, families, np.random.default_rng(1), 200, 0.95
    )
    assert np.isnan(relation1["spearman_rho"]).all() and "fewer than 3" in relation1["interval"].iloc[0]


def test_rowwise_spearman_equals_scipy():
    from scipy import stats

    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(6, 5)), rng.normal(size=(6, 5))
    a[2, 1] = np.nan
    rho = snr.rowwise_spearman(a, b)
    for row in (0, 1, 3, 4, 5):
        assert rho[row] == pytest.approx(stats.spearmanr(a[row], b[row]).statistic)
    assert np.isnan(rho[2])
