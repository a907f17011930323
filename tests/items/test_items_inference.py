"""Inference for subsets: the family-clustered resamples equal scipy on the resampled rows, the
permutation null repeats the selection, and on data with no signal a criterion-chosen subset's rho is
not called validity."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchval.analysis.bootstrap import rng_for
from benchval.items import inference
from benchval.items.curve import verdict
from benchval.items.subsets import lofo_criterion_scores


def test_cluster_resamples_take_whole_families():
    labels = np.array(["a", "a", "b", "c", "c", "c"])
    indices = inference.cluster_indices(labels, np.random.default_rng(0), 50)
    for row in indices:
        rows = row[row >= 0]
        for family in set(labels[rows]):
            members = np.flatnonzero(labels == family)
            # a family drawn t times contributes each of its models t times
            counts = [np.sum(rows == m) for m in members]
            assert len(set(counts)) == 1 and counts[0] >= 1
        assert len(set(labels[rows])) <= 3


def test_resampled_spearman_equals_scipy():
    rng = np.random.default_rng(1)
    stack = rng.normal(size=(9, 3))
    labels = np.array([0, 0, 1, 2, 2, 3, 4, 4, 4])
    indices = inference.cluster_indices(labels, rng, 20)
    rho = inference.resampled_spearman(stack, indices)
    for b, row in enumerate(indices):
        rows = row[row >= 0]
        for j in (1, 2):
            assert rho[b, j - 1] == pytest.approx(stats.spearmanr(stack[rows, 0], stack[rows, j]).statistic)
    y_perm = inference.permuted_criteria(stack[:, 0], rng, 5)
    expected = [stats.spearmanr(stack[:, 1], y_perm[:, p]).statistic for p in range(5)]
    assert inference.spearman_with_columns(stack[:, 1], y_perm) == pytest.approx(expected)


def _matrix(rng, signal: float):
    models = [f"m{i}" for i in range(24)]
    ability = rng.normal(size=24)
    logits = ability[:, None] - rng.normal(size=80)
    matrix = pd.DataFrame((rng.random((24, 80)) < 1 / (1 + np.exp(-logits))).astype(float), index=models)
    matrix.columns = [f"i{j}" for j in range(80)]
    criterion = pd.Series(signal * ability + rng.normal(size=24), index=models)
    families = pd.Series([f"f{i // 3}" for i in range(24)], index=models)
    return matrix, criterion, families


def test_the_permuted_selection_is_the_selection():
    """Column 0 of the vectorised null, given the criterion itself, reproduces the observed LOFO scores."""
    matrix, criterion, families = _matrix(np.random.default_rng(2), 1.0)
    pooled = inference.lofo_permuted_scores(
        matrix.to_numpy(), criterion.to_numpy()[:, None], families.to_numpy(), [5, 20], 6
    )
    for j, k in enumerate((5, 20)):
        expected = lofo_criterion_scores(matrix, criterion, families, [k], 6)[k][0]
        assert pooled[0, j] == pytest.approx(expected.to_numpy())


def _criterion_p(matrix, criterion, families, n_perm, seed):
    from benchval.items.curve import PairContext

    settings = {"ci_level": 0.95, "n_bootstrap": 100, "n_permutations": n_perm}
    ctx = PairContext(matrix, criterion, families, settings, lambda key: rng_for(seed, key))
    observed = lofo_criterion_scores(matrix, criterion, families, [10], 6)[10][0].to_numpy()
    null = inference.lofo_permuted_scores(ctx.values, ctx.y_perm, ctx.labels, [10], 6)[:, 0, :].T
    return ctx.judge(observed, null)


def test_permutation_null_on_a_case_with_no_signal():
    """A criterion of pure noise: selection on the training models finds items that correlate with it
    in-sample (the cheapest check, which would call them valid), but the out-of-family subset's
    permutation p is spread like a p-value under the null and its verdict is never keeps / gains."""
    p_values, verdicts, in_sample = [], [], []
    for seed in range(12):
        matrix, criterion, families = _matrix(np.random.default_rng(100 + seed), 0.0)
        judged = _criterion_p(matrix, criterion, families, 99, seed)
        p_values.append(judged["p_perm_rho"])
        verdicts.append(judged["verdict"])
        rho = np.nan_to_num(stats.spearmanr(matrix.to_numpy(), criterion.to_numpy()).statistic[-1, :-1], nan=-1)
        top = matrix.iloc[:, np.argsort(-rho)[:10]].mean(axis=1)
        in_sample.append(stats.spearmanr(top, criterion).statistic)
    assert np.median(in_sample) > 0.5  # selecting on the criterion in-sample "finds" validity in noise
    assert sum(p < 0.05 for p in p_values) <= 2 and np.median(p_values) > 0.2
    assert not {"keeps", "gains"} & set(verdicts)


def test_permutation_null_finds_a_real_signal():
    matrix, criterion, families = _matrix(np.random.default_rng(7), 3.0)
    judged = _criterion_p(matrix, criterion, families, 99, 1)
    assert judged["p_perm_rho"] <= 0.02 and judged["rho"] > 0.5


def test_permutation_p_and_verdict_by_hand():
    assert inference.permutation_p(0.5, np.array([0.1, 0.6, 0.5, np.nan])) == pytest.approx(3 / 4)
    assert inference.permutation_p(0.9, np.array([0.1, 0.2, 0.3])) == pytest.approx(1 / 4)
    assert np.isnan(inference.permutation_p(0.9, np.array([])))
    assert verdict(0.01, 0.2, 0.01, 0.01, 0.05) == "gains"
    assert verdict(0.01, 0.2, 0.30, 0.01, 0.05) == "undecided"  # beats a full benchmark near 0, itself chance
    assert verdict(0.01, 0.2, 0.01, 0.30, 0.05) == "undecided"  # the interval says gain, the null does not
    assert verdict(-0.2, -0.01, 0.01, 0.9, 0.05) == "loses"
    assert verdict(-0.2, 0.1, 0.01, 0.9, 0.05) == "keeps"
    assert verdict(-0.2, 0.1, 0.40, 0.9, 0.05) == "undecided"  # chance selection reaches its rho
