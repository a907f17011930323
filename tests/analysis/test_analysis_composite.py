"""Composites use the population SD, the convention of the LOFO feature scaling (StandardScaler)."""

import numpy as np
import pytest
from scipy import stats
from sklearn.preprocessing import StandardScaler

from benchval.analysis.composite import standardised_mean


def test_composite_is_mean_of_scipy_zscores_and_standard_scaler():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(9, 3))
    expected = stats.zscore(values, axis=0).mean(axis=1)  # scipy's default ddof=0
    np.testing.assert_allclose(standardised_mean(values, values), expected, atol=1e-12)
    np.testing.assert_allclose(
        standardised_mean(values, values), StandardScaler().fit_transform(values).mean(axis=1), atol=1e-12
    )


def test_composite_with_missing_constituents_and_reference_statistics():
    reference = np.array([[1.0, 10.0], [2.0, np.nan], [3.0, 30.0]])
    values = np.array([[2.0, 20.0], [4.0, np.nan]])
    # column 0: mean 2, population SD sqrt(2/3); column 1: mean 20, population SD 10
    first = ((2 - 2) / np.sqrt(2 / 3) + (20 - 20) / 10) / 2
    second = (4 - 2) / np.sqrt(2 / 3)
    np.testing.assert_allclose(standardised_mean(values, reference), [first, second])
    assert np.isnan(standardised_mean(values, np.array([[1.0, 5.0]]))).all()  # one reference row: no SD
    assert standardised_mean(values, reference)[1] == pytest.approx(2 / np.sqrt(2 / 3))
