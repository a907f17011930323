import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchval.analysis.correlation import correlation_long, fisher_z, spearman
from benchval.analysis.undefined import UndefinedStatistic


def test_correlation_table_matches_scipy_pairwise_complete(study):
    wide = study.wide("accuracy").copy()
    wide.iloc[[0, 4], wide.columns.get_loc("cei")] = np.nan
    table = correlation_long(wide, ["hellaswag", "siqa"], ["cei", "trip"], min_models=5)
    for row in table.itertuples():
        both = wide[[row.task_a, row.task_b]].dropna()
        reference = stats.spearmanr(both.iloc[:, 0], both.iloc[:, 1])
        assert row.rho == pytest.approx(reference.statistic, abs=1e-12)
        assert row.p == pytest.approx(reference.pvalue, rel=1e-9)
        assert row.n_models == len(both)
    assert table.loc[table.task_b == "cei", "n_models"].tolist() == [21, 21]


def test_hand_computed_spearman():
    # ranks x: 1 2 3 4 5, y: 2 1 4 3 5 -> d^2 = 1+1+1+1+0 = 4; rho = 1 - 6*4/(5*24) = 0.8
    rho, _, n = spearman(pd.Series([1, 2, 3, 4, 5.0]), pd.Series([20, 10, 40, 30, 50.0]), min_models=3)
    assert rho == pytest.approx(0.8) and n == 5


def test_undefined_spearman_gives_reasons():
    x = pd.Series([1.0, 2.0, 3.0, np.nan, np.nan])
    with pytest.raises(UndefinedStatistic, match="only 3 model"):
        spearman(x, pd.Series([1.0, 2, 3, 4, 5]), min_models=4)
    with pytest.raises(UndefinedStatistic, match="same score"):
        spearman(pd.Series([1.0, 1, 1, 1]), pd.Series([1.0, 2, 3, 4]), min_models=3)
    table = correlation_long(pd.DataFrame({"a": [1.0, 1, 1, 1], "b": [1.0, 2, 3, 4]}), ["a"], ["b"], 3)
    assert np.isnan(table.at[0, "rho"]) and "same score" in table.at[0, "note"]


def test_fisher_z_clips_perfect_correlation():
    assert np.isfinite(fisher_z(1.0, 0.9999))
    assert fisher_z(0.5, 0.9999) == pytest.approx(np.arctanh(0.5))
