"""Incremental validity (issue 33): the partial beyond g against pingouin and statsmodels residuals, g computed
without the pair's columns and siblings, the family-clustered bootstrap, and rankings that never place an
undefined value below a defined one."""

import numpy as np
import pandas as pd
import pingouin
import pytest
import statsmodels.api as sm
from scipy import stats

from benchval.analysis.partial_sensitivity import general_factor
from benchval.atlas.clustered import cluster_weights, weighted_partial, weighted_ranks
from benchval.atlas.general_factor import FactorSettings, GeneralFactor, complete_case_check, one_factor_loadings
from benchval.atlas.groups import column_groups, hierarchical_q
from benchval.atlas.incremental import incremental_validity, population
from benchval.atlas.predictors import ranked

SETTINGS = {"min_models": 5, "n_bootstrap": 200, "ci_level": 0.95, "min_clusters": 3}


def hand_case(n=24, seed=7):
    rng = np.random.default_rng(seed)
    g = rng.normal(size=n)
    x = g + rng.normal(size=n) * 0.8
    y = g + 0.4 * x + rng.normal(size=n)
    size = np.exp(rng.normal(size=n))
    return x, y, g, size


def test_partial_beyond_g_equals_pingouin_and_statsmodels_residuals():
    x, y, g, size = hand_case()
    record = incremental_validity(
        x, y, {"g": g, "size": np.log(size)}, np.arange(len(x)), SETTINGS, np.random.default_rng(0)
    )
    frame = pd.DataFrame({"x": x, "y": y, "g": g, "s": size})
    reference = pingouin.partial_corr(frame, "x", "y", covar=["g"], method="spearman")
    assert record["rho_beyond_g"] == pytest.approx(reference["r"].iloc[0], abs=1e-12)
    assert record["p_beyond_g"] == pytest.approx(reference["p_val"].iloc[0], rel=1e-9)
    both = pingouin.partial_corr(frame, "x", "y", covar=["g", "s"], method="spearman")["r"].iloc[0]
    assert record["rho_beyond_g_size"] == pytest.approx(both, abs=1e-12)
    design = sm.add_constant(stats.rankdata(g))  # statsmodels: residuals of the ranks on rank(g), then Pearson
    rx = sm.OLS(stats.rankdata(x), design).fit().resid
    ry = sm.OLS(stats.rankdata(y), design).fit().resid
    assert record["rho_beyond_g"] == pytest.approx(np.corrcoef(rx, ry)[0, 1], abs=1e-12)
    assert record["rho"] == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
    assert record["rho_beyond_g"] < record["rho"]  # g explains part of the raw association


def test_rho_same_population_is_the_raw_rho_on_the_models_with_a_g():
    x, y, g, size = hand_case()
    g[:6] = np.nan
    record = incremental_validity(
        x, y, {"g": g, "size": np.log(size)}, np.arange(len(x)), SETTINGS, np.random.default_rng(0)
    )
    assert record["n_beyond_g"] == len(x) - 6 and record["n_models"] == len(x)
    assert record["rho_same_population"] == pytest.approx(stats.spearmanr(x[6:], y[6:]).statistic)


def test_a_weighted_draw_equals_the_statistic_of_the_resampled_rows():
    x, y, g, _ = hand_case()
    x = np.round(x, 0)  # ties, and more from the resampling
    families = np.repeat(np.arange(8), 3)
    weights = cluster_weights(families, 40, np.random.default_rng(3))
    assert (weights.reshape(40, 8, 3) == weights.reshape(40, 8, 3)[:, :, :1]).all()  # whole families drawn
    assert (weights.sum(axis=1) == len(x)).all()
    for draw in weights[:10]:
        rows = np.repeat(np.arange(len(x)), draw.astype(int))
        assert weighted_ranks(x, draw[None])[0][rows] == pytest.approx(stats.rankdata(x[rows]))
        expected = pingouin.partial_corr(
            pd.DataFrame({"x": x[rows], "y": y[rows], "g": g[rows]}), "x", "y", covar=["g"], method="spearman"
        )["r"].iloc[0]
        assert weighted_partial(x, y, g[:, None], draw[None])[0] == pytest.approx(expected, abs=1e-10)


def test_g_for_a_pair_is_computed_without_its_columns_and_their_siblings():
    rng = np.random.default_rng(1)
    n = 60
    base = rng.normal(size=n)
    columns = {f"c{i}": base + rng.normal(size=n) * 0.7 for i in range(6)}
    wide = pd.DataFrame(columns, index=[f"m{i}" for i in range(n)])
    leaderboard = {"c0": "A", "c1": "A", "c2": "B", "c3": "C", "c4": "D", "c5": "E"}
    groups = column_groups(leaderboard, {}, ())
    people = population(wide, None, groups, FactorSettings(min_models=10, min_columns=2))
    g = people.g_without("c0", "c2")
    changed = wide.copy()
    changed[["c0", "c1", "c2"]] = rng.normal(size=(n, 3))  # the pair (c0, c2) and c0's sibling c1
    assert population(changed, None, groups, FactorSettings(10, 2)).g_without("c0", "c2") == pytest.approx(g, abs=1e-6)
    changed["c3"] = rng.normal(size=n)  # a column outside the pair's groups: g must change
    assert not np.allclose(population(changed, None, groups, FactorSettings(10, 2)).g_without("c0", "c2"), g)


def test_loadings_recover_a_one_factor_correlation_matrix_with_missing_entries():
    loadings = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    corr = np.outer(loadings, loadings)
    np.fill_diagonal(corr, 1.0)
    corr[0, 4] = corr[4, 0] = np.nan  # never observed together
    assert one_factor_loadings(corr, iterations=5000, tolerance=1e-12) == pytest.approx(loadings, abs=1e-6)


def test_pairwise_g_agrees_with_complete_case_pca_on_a_dense_block():
    rng = np.random.default_rng(2)
    base = rng.normal(size=80)
    wide = pd.DataFrame({f"c{i}": base + rng.normal(size=80) * 0.5 for i in range(5)})
    check = complete_case_check(wide, list(wide.columns), FactorSettings(min_models=10))
    assert check.at[0, "spearman_g_vs_complete_case_pc1"] > 0.99


def test_a_model_without_enough_columns_has_no_g_never_zero():
    # four columns (three are a just-identified one-factor model, where a Heywood case is common), none Heywood
    wide = pd.DataFrame(
        {
            "a": [2.0, 1, 3, 4, 6, 5, 7, 8],
            "b": [1.0, 2, 4, 3, 5, 6, 8, 7],
            "c": [1.0, 3, 2, 4, 6, 5, 7, np.nan],
            "d": [3.0, 1, 2, 4, 5, 7, 6, np.nan],
        }
    )
    factor = GeneralFactor(wide, FactorSettings(min_models=3, min_columns=3))
    g = factor.scores(())
    assert factor.fit(())["g_heywood_columns"] == ""
    assert np.isnan(g.iloc[7]) and g.iloc[:7].notna().all()


def test_an_undefined_value_is_never_ranked_below_a_defined_one_and_siblings_rank_once():
    table = pd.DataFrame(
        {
            "predictor": ["p1", "p2", "p3", "p4", "p5"],
            "group_a": ["A", "A", "B", "C", "D"],
            "rho": [0.9, 0.8, 0.95, 0.3, 0.5],
            "rho_beyond_g": [0.4, 0.5, np.nan, 0.1, 0.3],
            "n_beyond_g": [30, 30, 0, 30, 12],
            "note": ["", "", "rho_beyond_g undefined: 0 models", "", ""],
        }
    )
    result = ranked(table, min_n=20).set_index("predictor")
    assert result.loc["p2", "rank"] == 1 and result.loc["p4", "rank"] == 2  # p2 leads group A
    assert np.isnan(result.loc["p1", "rank"]) and "sibling of p2" in result.loc["p1", "rank_note"]
    assert np.isnan(result.loc["p3", "rank"]) and "undefined" in result.loc["p3", "rank_note"]
    assert np.isnan(result.loc["p5", "rank"]) and "12 models" in result.loc["p5", "rank_note"]
    assert list(result.index[:2]) == ["p2", "p4"]  # the unranked come after every ranked row


def test_many_sibling_pairs_count_once_in_the_correction():
    """Ten sibling pairs of one group pair and one lone pair: plain BH over 11 tests would let the siblings'
    number lower the lone pair's q; the hierarchical rule tests two group pairs."""
    p = pd.Series([1e-4] * 10 + [0.03])
    labels = pd.Series(["A ~ B"] * 10 + ["C ~ D"])
    q, lead = hierarchical_q(p, labels)
    assert q.iloc[10] == pytest.approx(0.03)  # BH over the two group pairs: 0.03 * 2 / 2
    assert lead.sum() == 2


def test_the_study_g_covariate_leaves_out_the_pairs_columns():
    rng = np.random.default_rng(4)
    wide = pd.DataFrame(rng.normal(size=(30, 4)), columns=["x", "y", "o1", "o2"])
    g = general_factor(wide, ["x", "y"])
    changed = wide.assign(x=rng.normal(size=30), y=rng.normal(size=30))
    assert general_factor(changed, ["x", "y"]).to_numpy() == pytest.approx(g.to_numpy())
    assert not np.allclose(general_factor(wide.assign(o1=rng.normal(size=30)), ["x", "y"]), g)


def test_factor_tables_recover_a_simulated_general_factor_and_draw(tmp_path):
    from benchval.atlas.factor_structure import dense_block, draw_factor_figure, factor_tables

    rng = np.random.default_rng(8)
    g = rng.normal(size=400)
    strengths = [0.9, 0.8, 0.7, 0.5, 0.3]
    wide = pd.DataFrame({f"c{i}": s * g + np.sqrt(1 - s * s) * rng.normal(size=400) for i, s in enumerate(strengths)})
    wide["agg"] = wide.mean(axis=1)
    leaderboard = dict.fromkeys(wide.columns, "lb")
    block = dense_block(wide, leaderboard, ["lb"], {"lb": ["agg"]})
    assert list(block.columns) == [f"c{i}" for i in range(5)]  # the aggregate is left out
    scree, loadings = factor_tables(block, 1)
    assert scree["eigenvalue"].is_monotonic_decreasing and scree["cumulative"].iloc[-1] == pytest.approx(1.0)
    found = loadings.set_index("column")["loading_1"]
    assert found.to_numpy() == pytest.approx(strengths, abs=0.08)  # rankits of normal data: close to the truth
    expected = (1 - loadings["loading_1"] ** 2).to_numpy()  # one factor: uniqueness is what it leaves
    assert loadings["uniqueness"].to_numpy() == pytest.approx(expected, abs=1e-6)
    draw_factor_figure(scree, loadings, [str(tmp_path / "f.png")], 50)
    assert (tmp_path / "f.png").stat().st_size > 0
