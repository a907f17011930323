"""Subsets and their validity: leave-one-family-out selection never reads the held-out family's
responses, held-out scores are pooled before the rho, and the curve's intervals behave."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchval.analysis.bootstrap import rng_for
from benchval.items import subsets

SETTINGS = {
    "k": [5, 20, "all"],
    "n_random_draws": 50,
    "n_bootstrap": 200,
    "ci_level": 0.95,
    "min_models": 6,
    "n_permutations": 0,
}


@pytest.fixture
def study():
    rng = np.random.default_rng(11)
    models = [f"m{i}" for i in range(24)]
    ability = rng.normal(size=24)
    difficulty = rng.normal(size=60)
    matrix = (rng.random((24, 60)) < 1 / (1 + np.exp(-(ability[:, None] - difficulty)))).astype(float)
    frame = pd.DataFrame(matrix, index=models, columns=[f"i{j}" for j in range(60)])
    criterion = pd.Series(ability + rng.normal(scale=0.7, size=24), index=models)
    families = pd.Series([f"f{i // 4}" for i in range(24)], index=models)
    return frame, criterion, families


def test_selection_never_reads_the_held_out_family(study):
    matrix, criterion, families = study
    folds = subsets.lofo_criterion_scores(matrix, criterion, families, [5, 20], 6)[5][1]
    assert len(folds) == 6
    for fold in folds:
        held_out = set(families.index[families == fold.family])
        assert held_out == set(fold.held_out_models) and not held_out & set(fold.training_models)
        # the fold's items are those of the training models alone, whatever the held-out family answered
        rewritten = matrix.copy()
        rewritten.loc[list(held_out)] = 1.0 - rewritten.loc[list(held_out)]
        wild = criterion.copy()
        wild.loc[list(held_out)] = -wild.loc[list(held_out)] * 100
        again = {f.family: f for f in subsets.lofo_criterion_scores(rewritten, wild, families, [5], 6)[5][1]}
        assert again[fold.family].selected_items == fold.selected_items
        training = list(fold.training_models)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", stats.ConstantInputWarning)
            rho = [stats.spearmanr(matrix.loc[training, c], criterion[training]).statistic for c in matrix.columns]
        rho = pd.Series(np.nan_to_num(np.array(rho), nan=-9.0), index=matrix.columns)
        chosen = rho[list(fold.selected_items)]
        assert chosen.min() >= rho.drop(chosen.index).max() - 1e-12  # the top 5 by training rho (ties: any)


def test_the_cheapest_leak_is_caught(study):
    """Selecting on all models (the held-out family included) changes some fold's selection: the check
    above would see it."""
    matrix, criterion, families = study
    leaky = subsets.training_rho(matrix, criterion)
    folds = subsets.lofo_criterion_scores(matrix, criterion, families, [5], 6)[5][1]
    assert any(set(f.selected_items) != set(matrix.columns[subsets.top_k(leaky, 5)]) for f in folds)


def test_held_out_scores_are_pooled_over_folds(study):
    matrix, criterion, families = study
    pooled, folds = subsets.lofo_criterion_scores(matrix, criterion, families, [5], 6)[5]
    for fold in folds:
        for model in fold.held_out_models:
            assert pooled[model] == pytest.approx(matrix.loc[model, list(fold.selected_items)].mean())
    assert pooled.notna().all()


def test_small_training_sets_leave_their_fold_unscored(study):
    matrix, criterion, families = study
    pooled, folds = subsets.lofo_criterion_scores(matrix, criterion, families, [5], 21)[5]
    assert folds == [] and pooled.isna().all()


def _irt(matrix, information):
    from benchval.items.irt_selection import IrtSelection

    items = pd.DataFrame({"discrimination": 1.0, "difficulty": 0.0, "at_bound": False}, index=matrix.columns)
    return IrtSelection("2PL", items, information, {})


def test_validity_curve(study):
    from benchval.items.curve import validity_curve

    matrix, criterion, families = study
    info = pd.Series(np.arange(60, dtype=float), index=matrix.columns)  # item i59 most informative
    info["i59"] = np.nan  # an item at a bound: never chosen
    settings = {**SETTINGS, "n_permutations": 19}
    curve, folds = validity_curve(matrix, criterion, families, _irt(matrix, info), settings, lambda k: rng_for(1, k))
    full = curve[curve["method"] == "full"].iloc[0]
    assert full["rho"] == pytest.approx(stats.spearmanr(matrix.mean(axis=1), criterion).statistic)
    assert full["ci_low"] <= full["rho"] <= full["ci_high"]
    irt5 = curve[(curve["method"] == "irt") & (curve["k"] == "5")].iloc[0]
    top = matrix[[f"i{j}" for j in range(54, 59)]].mean(axis=1)  # the 5 most informative off the bound
    assert irt5["rho"] == pytest.approx(stats.spearmanr(top, criterion).statistic)
    for method in ("random", "irt", "anchor", "criterion"):
        rows = curve[curve["method"] == method]
        assert len(rows) == 2 and (rows["ci_low"] <= rows["ci_high"]).all()
        assert (rows["diff_ci_low"] <= rows["diff_ci_high"]).all()
        assert rows["p_perm_rho"].between(1 / 20, 1).all() and (rows["n_permutations"] == 19).all()
        assert set(rows["verdict"]) <= {"keeps", "gains", "loses", "undecided"}
    assert list(curve.loc[curve["k"] == "all", "method"]) == ["full"]  # every method at k = all is the full one
    assert set(folds["k"]) == {"5", "20", "all"} and len(folds) == 3 * 6


def test_k_values_and_top_k():
    assert subsets.k_values([10, 100, "all"], 50) == [("10", 10), ("all", 50)]
    assert list(subsets.top_k(np.array([0.1, np.nan, 0.9, 0.9]), 2)) == [2, 3]
