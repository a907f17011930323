import zlib

import numpy as np
import pytest
from scipy import stats

from benchval.analysis import bootstrap


def test_resample_indices_are_numpys_draws_with_replacement():
    """B x n rows of numpy's integers(0, n) from the given Generator, drawn here by hand."""
    indices = bootstrap.resample_indices(np.random.default_rng(11), 7, 500)
    expected = np.random.default_rng(11).integers(0, 7, size=(500, 7))
    np.testing.assert_array_equal(indices, expected)
    assert indices.shape == (500, 7) and set(np.unique(indices)) == set(range(7))
    assert len({tuple(row) for row in indices}) > 450  # resamples differ from each other


def test_rng_for_seeds_numpy_with_the_seed_and_the_crc32_of_the_key():
    """Documented seeding (docs/analysis.md): default_rng([seed, CRC32("part/part/...")])."""
    ours = bootstrap.rng_for(5, "delta_rho", "accuracy", "m1").integers(0, 10**9, 20)
    by_hand = np.random.default_rng([5, zlib.crc32(b"delta_rho/accuracy/m1")]).integers(0, 10**9, 20)
    np.testing.assert_array_equal(ours, by_hand)


def test_vectorised_spearman_equals_scipy_on_every_resample():
    rng = np.random.default_rng(0)
    matrix = np.round(rng.random((15, 4)), 1)  # rounding creates ties
    indices = rng.integers(0, 15, size=(50, 15))
    stack = bootstrap.bootstrap_spearman(matrix, indices)
    for b in range(50):
        reference = stats.spearmanr(matrix[indices[b]]).statistic
        np.testing.assert_allclose(stack[b], reference, atol=1e-12)


def test_constant_resample_gives_nan_not_a_number():
    matrix = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0]])
    indices = np.array([[0, 0, 0], [0, 1, 2]])
    stack = bootstrap.bootstrap_spearman(matrix, indices)
    assert np.isnan(stack[0, 0, 1]) and np.isfinite(stack[1, 0, 1])
    summary = bootstrap.summarise(0.5, stack[:, 0, 1], 0.95)
    assert summary["n_boot_valid"] == 1
    assert "1 of 2 resamples" in bootstrap.invalid_note(1, 2)


def test_percentile_ci_agrees_with_scipy_bootstrap():
    """Paired delta-rho statistic: our resampling vs scipy.stats.bootstrap (percentile, paired)."""
    rng = np.random.default_rng(1)
    n = 30
    latent = rng.normal(size=n)
    x1, x2, y = latent + rng.normal(size=n), latent + 2 * rng.normal(size=n), latent + rng.normal(size=n)

    def delta(a, b, c, axis=-1):
        stack = np.stack([a, b, c], axis=-1)
        corr = bootstrap.spearman_matrices(stack)
        return corr[..., 0, 2] - corr[..., 1, 2]

    n_boot = 20000
    indices = np.random.default_rng(2).integers(0, n, size=(n_boot, n))
    ours = bootstrap.summarise(float(delta(x1, x2, y)), delta(x1[indices], x2[indices], y[indices]), 0.95)
    reference = stats.bootstrap(
        (x1, x2, y),
        delta,
        paired=True,
        vectorized=True,
        n_resamples=n_boot,
        method="percentile",
        confidence_level=0.95,
        rng=np.random.default_rng(3),
    )
    assert ours["estimate"] == pytest.approx(stats.spearmanr(x1, y).statistic - stats.spearmanr(x2, y).statistic)
    assert ours["ci_low"] == pytest.approx(reference.confidence_interval.low, abs=0.03)
    assert ours["ci_high"] == pytest.approx(reference.confidence_interval.high, abs=0.03)


def test_percentile_ci_and_p_on_hand_case():
    samples = np.arange(1, 101, dtype=float) - 10.5  # 10 negatives, 90 positives
    summary = bootstrap.summarise(3.0, samples, 0.9)
    assert summary["ci_low"] == pytest.approx(np.quantile(samples, 0.05))
    assert summary["ci_high"] == pytest.approx(np.quantile(samples, 0.95))
    assert summary["p_boot"] == pytest.approx(2 * (10 + 1) / 101)


def test_rng_for_is_stable_and_key_dependent():
    a = bootstrap.rng_for(5, "x", "accuracy").integers(0, 1000, 10)
    b = bootstrap.rng_for(5, "x", "accuracy").integers(0, 1000, 10)
    c = bootstrap.rng_for(5, "x", "macro_f1").integers(0, 1000, 10)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
