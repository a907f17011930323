"""Bootstrap intervals of the correlation tables (benchval.analysis.intervals), checked against
scipy.stats.bootstrap on hand-made cases and against partial_spearman on the resampled rows."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchval.analysis import bootstrap, intervals
from benchval.analysis.partial import partial_spearman
from benchval.analysis.settings import settings_from_config


def _family_case(seed=0, n=18):
    rng = np.random.default_rng(seed)
    family = np.repeat(["A", "B", "C"], n // 3)
    size = np.tile([1.0, 3.0, 7.0, 13.0, 30.0, 70.0], n // 6)
    latent = np.log(size) + rng.normal(size=n)
    x = np.round(latent + rng.normal(size=n), 1)  # rounded: ties
    y = latent + rng.normal(size=n)
    control = latent + rng.normal(size=n)
    return x, y, family, np.column_stack([np.log(size), control])


def _design(family, covariates):
    dummies = pd.get_dummies(pd.Series(family), drop_first=True, dtype=float).to_numpy()
    return np.column_stack([covariates, dummies])


def test_weighted_ranks_are_rankdata_of_the_resample():
    rng = np.random.default_rng(3)
    values = np.round(rng.random(12), 1)
    indices = rng.integers(0, 12, size=(40, 12))
    weights = np.zeros((40, 12))
    np.add.at(weights, (np.arange(40)[:, None], indices), 1.0)
    ranks = intervals.weighted_ranks(values, weights)
    for b in range(40):
        np.testing.assert_allclose(ranks[b][indices[b]], stats.rankdata(values[indices[b]]))


def test_spearman_of_a_resample_from_counts_equals_bootstrap_spearman_on_its_rows():
    """Ties and small n (some resamples constant in a column: NaN in both)."""
    rng = np.random.default_rng(8)
    matrix = np.round(rng.random((6, 3)), 1)
    matrix[:, 2] = [0, 0, 0, 0, 1, 1]  # often constant in a resample
    indices = rng.integers(0, 6, size=(300, 6))
    pairs = [(0, 1), (0, 2), (1, 2)]
    ours = intervals.chunked_spearman(matrix, indices, pairs)
    reference = bootstrap.bootstrap_spearman(matrix, indices)
    expected = np.stack([reference[:, i, j] for i, j in pairs], axis=1)
    assert np.isnan(expected[:, 1]).sum() > 10
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(expected))
    np.testing.assert_allclose(ours[~np.isnan(ours)], expected[~np.isnan(expected)], atol=1e-12)


def test_partial_of_a_resample_from_counts_equals_partial_spearman_on_its_rows():
    x, y, family, covariates = _family_case()
    indices = np.random.default_rng(5).integers(0, len(x), size=(60, len(x)))
    samples = intervals.partial_spearman_samples(x, y, family, covariates, indices)
    checked = 0
    for b, rows in enumerate(indices):
        design = _design(family[rows], covariates[rows])
        design = design[:, np.abs(design).sum(axis=0) > 0]
        try:
            reference = partial_spearman(x[rows], y[rows], design)[0]
        except Exception:  # undefined there: must be undefined here too
            assert np.isnan(samples[b])
            continue
        np.testing.assert_allclose(samples[b], reference, atol=1e-9)
        checked += 1
    assert checked > 50
    # unit counts = the full sample
    full = intervals.weighted_partial_spearman(x, y, family, covariates, np.ones((1, len(x))))[0]
    assert full == pytest.approx(partial_spearman(x, y, _design(family, covariates))[0], abs=1e-12)


def test_partial_with_too_few_models_per_covariate_is_undefined_in_that_resample():
    """3 distinct models in 3 families with 2 covariates: df < 1, NaN (partial_spearman raises)."""
    x, y, family, covariates = _family_case()
    rows = np.array([[0, 0, 6, 6, 12, 12] + [0] * 12])
    assert np.isnan(intervals.partial_spearman_samples(x, y, family, covariates, rows)[0])


def test_spearman_interval_equals_scipy_bootstrap_percentile():
    """Same seed, same draws: our interval of a pair's rho is scipy.stats.bootstrap's (paired, percentile)."""
    rng = np.random.default_rng(1)
    latent = rng.normal(size=14)
    wide = pd.DataFrame({"a": latent + rng.normal(size=14), "b": latent + rng.normal(size=14)})
    settings = settings_from_config({"seed": 11, "n_bootstrap": 2000, "ci_level": 0.9})
    table = pd.DataFrame({"task_a": ["a"], "task_b": ["b"], "rho": [stats.spearmanr(wide.a, wide.b).statistic]})
    ours = intervals.spearman_interval_columns(table, wide, "task_a", "task_b", settings, ("k",))
    reference = stats.bootstrap(
        (wide.a.to_numpy(), wide.b.to_numpy()),
        lambda a, b: stats.spearmanr(a, b).statistic,
        paired=True,
        vectorized=False,
        n_resamples=2000,
        confidence_level=0.9,
        method="percentile",
        rng=bootstrap.rng_for(11, "k", *wide.index),
    )
    assert ours.at[0, "ci_low"] == pytest.approx(reference.confidence_interval.low, abs=1e-12)
    assert ours.at[0, "ci_high"] == pytest.approx(reference.confidence_interval.high, abs=1e-12)
    assert ours.at[0, "n_boot_valid"] == 2000
    assert list(ours.columns) == ["task_a", "task_b", "rho", "ci_low", "ci_high", "n_boot_valid"]


def test_partial_interval_equals_scipy_bootstrap_percentile():
    x, y, family, covariates = _family_case(seed=2)
    n_boot = 300
    indices = bootstrap.resample_indices(np.random.default_rng(9), len(x), n_boot)
    samples = intervals.partial_spearman_samples(x, y, family, covariates, indices)
    assert np.isfinite(samples).all()
    ours = bootstrap.summarise(0.0, samples, 0.95)

    def statistic(rows):
        rows = rows.astype(int)
        design = _design(family[rows], covariates[rows])
        return partial_spearman(x[rows], y[rows], design[:, np.abs(design).sum(axis=0) > 0])[0]

    reference = stats.bootstrap(
        (np.arange(len(x), dtype=float),),
        statistic,
        vectorized=False,
        n_resamples=n_boot,
        method="percentile",
        rng=np.random.default_rng(9),
    )
    assert ours["ci_low"] == pytest.approx(reference.confidence_interval.low, abs=1e-9)
    assert ours["ci_high"] == pytest.approx(reference.confidence_interval.high, abs=1e-9)


def test_undefined_pair_gets_no_interval_and_a_constant_resample_is_counted():
    wide = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [2.0, 1, 4, 3], "c": [1.0] * 4})
    table = pd.DataFrame({"task_a": ["a", "a"], "task_b": ["b", "c"], "rho": [0.8, np.nan], "note": ["", "constant"]})
    settings = settings_from_config({"seed": 1, "n_bootstrap": 500})
    out = intervals.spearman_interval_columns(table, wide, "task_a", "task_b", settings, ("k",))
    assert np.isnan(out.at[1, "ci_low"]) and out.at[1, "n_boot_valid"] == 0 and out.at[1, "note"] == "constant"
    assert 0 < out.at[0, "n_boot_valid"] < 500  # 4 models: about 1 resample in 64 are constant, dropped and counted
    assert "resamples undefined" in out.at[0, "note"]


def test_chunks_of_resamples_give_the_same_numbers(monkeypatch):
    x, y, family, covariates = _family_case(seed=4)
    indices = np.random.default_rng(2).integers(0, len(x), size=(50, len(x)))
    matrix = np.column_stack([x, y])
    whole_rho = intervals.chunked_spearman(matrix, indices, [(0, 1)])
    whole_partial = intervals.partial_spearman_samples(x, y, family, covariates, indices)
    monkeypatch.setattr(intervals, "CHUNK_ELEMENTS", 7 * len(x))  # chunks of 7 resamples (1 for the partial)
    np.testing.assert_array_equal(intervals.chunked_spearman(matrix, indices, [(0, 1)]), whole_rho)
    np.testing.assert_array_equal(intervals.partial_spearman_samples(x, y, family, covariates, indices), whole_partial)


@pytest.mark.parametrize("step", ["correlations", "partial"])
def test_the_interval_steps_declare_the_bootstrap_keys_they_read(study, step):
    """The correlations and partial steps now draw bootstraps: their rules must pass n_bootstrap, ci_level
    and seed (STEP_SETTINGS), so that editing one reruns them; without a key the step fails naming it."""
    from benchval.analysis import pairwise, partial
    from benchval.analysis.chain import step_settings
    from benchval.analysis.outputs import STEP_SETTINGS

    assert {"n_bootstrap", "ci_level", "seed"} <= set(STEP_SETTINGS[step])
    module = {"correlations": pairwise, "partial": partial}[step]
    keys = [k for k in STEP_SETTINGS[step] if k != "n_bootstrap"]
    settings = step_settings({"seed": 1}, keys, step)
    with pytest.raises(AttributeError, match="reads settings.n_bootstrap, but its rule does not pass that key"):
        module.step_tables(study, study.metrics, settings)
