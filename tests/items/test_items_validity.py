"""Item validity against references: scipy's spearmanr and pearsonr, statsmodels' BH, and the
decomposition of the benchmark's criterion correlation into item contributions summing to the whole."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from benchval.items import validity


@pytest.fixture
def study():
    rng = np.random.default_rng(7)
    ability = rng.normal(size=25)
    matrix = (rng.random((25, 40)) < 1 / (1 + np.exp(-(ability[:, None] - rng.normal(size=40))))).astype(float)
    matrix[:, 3] = 1.0  # an item every model answers alike
    criterion = ability + rng.normal(scale=0.5, size=25)
    return pd.DataFrame(matrix, columns=[f"i{j}" for j in range(40)]), pd.Series(criterion, index=range(25))


def test_item_correlations_equal_scipy(study):
    matrix, criterion = study
    table = validity.item_validity(matrix, criterion, 0.95, 0.05)
    for j in (0, 5, 17, 39):
        reference = stats.spearmanr(matrix.iloc[:, j], criterion)
        assert table["rho"][j] == pytest.approx(reference.statistic, abs=1e-12)
        assert table["p"][j] == pytest.approx(reference.pvalue, rel=1e-9)
    assert np.isnan(table["rho"][3]) and np.isnan(table["p"][3]) and table["note"][3]
    defined = table["p"].notna()
    reference_fdr = multipletests(table.loc[defined, "p"], method="fdr_bh")[1]
    assert np.allclose(table.loc[defined, "p_fdr"], reference_fdr)
    assert table["fdr_significant"].sum() == int((reference_fdr < 0.05).sum())


def test_fisher_interval_by_hand():
    low, high = validity.fisher_interval(np.array([0.5]), 28, 0.95)
    half = 1.959963984540054 * np.sqrt(1.06 / 25)
    assert low[0] == pytest.approx(np.tanh(np.arctanh(0.5) - half))
    assert high[0] == pytest.approx(np.tanh(np.arctanh(0.5) + half))


def test_item_rest_equals_pearson_with_the_other_items(study):
    matrix, _ = study
    rest = validity.item_rest(matrix.to_numpy())
    for j in (0, 10):
        others = matrix.drop(columns=matrix.columns[j]).mean(axis=1)
        assert rest[j] == pytest.approx(stats.pearsonr(matrix.iloc[:, j], others).statistic)


def test_contributions_sum_to_the_benchmark_pearson_r(study):
    matrix, criterion = study
    shares = validity.contributions(matrix.to_numpy(), criterion.to_numpy())
    whole = stats.pearsonr(matrix.mean(axis=1), criterion).statistic
    assert shares.sum() == pytest.approx(whole, abs=1e-12)
    assert shares[3] == 0.0  # a constant item carries nothing
    # the cheapest wrong decomposition, item correlations divided by the item count, does not sum to r
    naive = validity.pearson_columns(matrix.drop(columns="i3").to_numpy(), criterion.to_numpy()).sum() / 40
    assert abs(naive - whole) > 0.05


def test_constant_criterion_is_refused(study):
    matrix, criterion = study
    with pytest.raises(ValueError, match="criterion is constant"):
        validity.item_validity(matrix, criterion * 0 + 1, 0.95, 0.05)
    with pytest.raises(ValueError, match="without a criterion"):
        validity.item_validity(matrix, criterion.iloc[:-1], 0.95, 0.05)


def test_contribution_summary_by_hand():
    from benchval.items.study import contribution_summary

    summary = contribution_summary(np.array([0.5, 0.3, -0.1, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]))
    assert summary["top10pct_contribution_share"] == pytest.approx(0.5 / 0.8)
    assert summary["n_items_negative_contribution"] == 1 and summary["negative_contribution_sum"] == -0.1
