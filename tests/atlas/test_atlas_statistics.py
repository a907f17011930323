"""The atlas's statistics against reference implementations (scipy, statsmodels) and hand cases."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from benchval.analysis.bootstrap import rng_for
from benchval.analysis.partial import partial_spearman
from benchval.atlas.agreement import agreement_validity, kendall_tau_b, win_rates
from benchval.atlas.obs_check import merged_lineages, obs_agreement
from benchval.atlas.pairs import atlas_pairs
from benchval.atlas.predictors import predictor_table
from benchval.atlas.study_tables import study_table
from benchval.atlas.leaderboards import LeaderboardError


def random_wide(seed=0, n=40, columns=("a", "b", "c", "d"), missing=0.2):
    rng = np.random.default_rng(seed)
    base = rng.normal(size=n)
    data = {c: base * (i + 1) * 0.3 + rng.normal(size=n) for i, c in enumerate(columns)}
    wide = pd.DataFrame(data, index=[f"m{i}" for i in range(n)])
    return wide.mask(rng.random(wide.shape) < missing)


def test_atlas_pairs_match_scipy_and_statsmodels_bh_and_exclude_aggregates():
    wide = random_wide()
    leaderboard = {"a": "lb1", "b": "lb1", "c": "lb2", "d": "lb3"}
    pairs, excluded = atlas_pairs(wide, leaderboard, {"lb1": ["a"]}, 10, 200, 0.95, 1, same={"d": "c"})
    assert excluded[["column_a", "column_b"]].values.tolist() == [["a", "b"], ["c", "d"]]
    assert "aggregate" in excluded.at[0, "rule"] and "snapshot" in excluded.at[1, "rule"]
    assert len(pairs) == 4
    for row in pairs.itertuples():
        both = wide[[row.column_a, row.column_b]].dropna()
        reference = stats.spearmanr(both.iloc[:, 0], both.iloc[:, 1])
        assert row.rho == pytest.approx(reference.statistic, abs=1e-12)
        assert row.p == pytest.approx(reference.pvalue, rel=1e-9)
        assert row.n_models == len(both) and row.ci_low <= row.rho <= row.ci_high
    # one measure, one vote: BH over the group pairs' Simes p, then the larger of that and BH within the group pair
    labels = [" ~ ".join(sorted(g)) for g in zip(pairs["group_a"], pairs["group_b"])]
    frame = pairs.assign(label=labels)
    simes = frame.groupby("label")["p"].apply(lambda p: min(1, (len(p) * np.sort(p) / np.arange(1, len(p) + 1)).min()))
    group_q = pd.Series(multipletests(simes, method="fdr_bh")[1], index=simes.index)
    for label, part in frame.groupby("label"):
        within = multipletests(part["p"], method="fdr_bh")[1]
        assert part["p_fdr"].to_numpy() == pytest.approx(np.maximum(within, group_q[label]), rel=1e-12)
    assert frame.groupby("label")["lead_of_group_pair"].sum().eq(1).all()


def test_a_pair_below_min_models_is_not_in_the_atlas():
    wide = random_wide(n=12, missing=0.0)
    wide.loc[wide.index[:5], "d"] = np.nan  # d shares 7 models with each column
    pairs, _ = atlas_pairs(wide, dict.fromkeys(wide.columns, "x"), {}, 8, 100, 0.95, 1)
    assert "d" not in set(pairs["column_a"]) | set(pairs["column_b"])


def test_kendall_tau_b_equals_scipy_with_ties():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(6, 15)).astype(float)
    y = x + rng.integers(0, 3, size=(6, 15))
    expected = [stats.kendalltau(a, b).statistic for a, b in zip(x, y)]
    assert kendall_tau_b(x, y) == pytest.approx(expected, abs=1e-12)


def test_win_rate_hand_case():
    """BenchBench: the fraction of the other models a model beats strictly, per column."""
    wide = pd.DataFrame({"s": [3.0, 1.0, 1.0, np.nan]}, index=list("wxyz"))
    assert win_rates(wide)["s"].tolist()[:3] == [1.0, 0.0, 0.0]
    assert np.isnan(win_rates(wide).at["z", "s"])


def test_agreement_validity_table_ranks_and_moves():
    wide = random_wide(n=30, columns=("crit", "a", "b", "c"), missing=0.0)
    wide["c"] = -wide["crit"] + np.random.default_rng(1).normal(size=30) * 0.1  # disagrees with the rest
    table = agreement_validity(wide, "crit", ["a", "b", "c"], {"n_bootstrap": 200, "ci_level": 0.95, "seed": 1})
    row = table.set_index("benchmark")
    reference = win_rates(wide[["a", "b"]]).mean(axis=1)  # c's reference: the other benchmarks' mean win rate
    assert row.at["c", "agreement"] == pytest.approx(stats.kendalltau(wide["c"], reference).statistic)
    assert row.at["a", "validity"] == pytest.approx(stats.spearmanr(wide["a"], wide["crit"]).statistic)
    assert row.at["c", "validity_rank"] == 3
    assert (table["agreement_rank_ci_low"] <= table["agreement_rank"]).all()
    moved = (table["rank_shift_ci_low"] > 0) | (table["rank_shift_ci_high"] < 0)
    assert table["moved"].tolist() == moved.tolist()
    assert (table["rank_shift_ci_low"] <= table["rank_shift"]).all()


def test_predictor_table_partial_on_log_size_matches_partial_spearman():
    wide = random_wide(n=30, columns=("elo", "p1", "p2", "o1", "o2", "o3"), missing=0.1)
    sizes = pd.Series(np.exp(np.random.default_rng(4).normal(size=30)), index=wide.index)
    sizes.iloc[:8] = np.nan  # closed models: no size
    models = pd.DataFrame({"size_b": sizes, "family": [f"f{i % 6}" for i in range(30)]})
    leaderboard = {"elo": "arena", "p1": "x", "p2": "y", "o1": "o1", "o2": "o2", "o3": "o3"}
    context = {"leaderboard": leaderboard, "aggregates": {}, "same_measure": {"p2": "elo"}, "collections": ()}
    settings = {
        "min_models": 10,
        "n_bootstrap": 100,
        "ci_level": 0.95,
        "seed": 2,
        "min_headline_n": 10,
        "min_clusters": 3,
    }
    table, excluded = predictor_table(wide, models, ["elo"], context, settings)
    assert set(table["predictor"]) == {"p1", "o1", "o2", "o3"} and excluded["predictor"].tolist() == ["p2"]
    row = table.set_index("predictor").loc["p1"]
    rows = wide[["p1", "elo"]].notna().all(axis=1) & sizes.notna()
    r, p, _ = partial_spearman(wide.loc[rows, "p1"], wide.loc[rows, "elo"], stats.rankdata(np.log(sizes[rows])))
    assert row["rho_beyond_size"] == pytest.approx(r) and row["n_beyond_size"] == rows.sum()
    assert row["p_beyond_size"] == pytest.approx(p)
    ranked = table.dropna(subset=["rank"])
    assert ranked["rank"].tolist() == list(range(1, len(ranked) + 1))
    assert (ranked["rho_beyond_g"].diff().dropna() <= 0).all()


def test_obs_agreement_lists_every_disagreement_and_the_coarser_lineage():
    obs = pd.DataFrame(
        {
            "canonical_id": ["a", "b", "c", "d"],
            "raw_name": list("ABCD"),
            "family": ["Llama", "Llama-2", "Llama-2", "Qwen"],
            "size_b": [7.0, 13.0, 6.7, 39.0],
        }
    )
    models = pd.DataFrame(
        {
            "family": ["llama", "llama", "llama", None],
            "family_rule": ["r", "r", "r", "no family rule matched"],
            "size_b": [7.0, 70.0, 7.0, 141.0],
            "active_b": [np.nan, np.nan, np.nan, 39.0],
            "size_rule": ["t", "t", "t", "override: x"],
        },
        index=["a", "b", "c", "d"],
    )
    summary, disagreements = obs_agreement(obs, models, 0.1)
    assert summary.set_index("field")["n_agree"].to_dict() == {"family": 3, "size_b": 2}
    assert sorted(zip(disagreements["model"], disagreements["field"])) == [
        ("B", "size_b"),
        ("D", "family"),
        ("D", "size_b"),
    ]
    assert "active parameters" in disagreements.set_index(["model", "field"]).at[("D", "size_b"), "why"]
    assert merged_lineages(obs, models).values.tolist() == [["llama", "Llama | Llama-2"]]


def test_study_table_counts_and_a_configured_column_the_files_lack_fails():
    cells = pd.DataFrame(
        {
            "canonical_id": ["m1", "m1", "m2", "m2", "m3"],
            "leaderboard": ["v1", "v2", "v1", "v2", "v1"],
            "column": ["A", "B", "A", "B", "A"],
            "value": [1.0, 2.0, 3.0, 4.0, 5.0],
        }
    )
    models = pd.DataFrame({"family": ["f", None, "g"], "size_b": [7.0, 1.0, np.nan]}, index=["m1", "m2", "m3"])
    study = {"tasks": {"a": {"column": "A"}, "b": {"column": "B"}}}
    table, report = study_table(cells, models, "s", study, ["v1", "v2"])
    assert table["model"].tolist() == ["m1"] and report["n_models"].tolist() == [2, 1, 1]
    assert report.at[1, "left_out"] == "m2"
    with pytest.raises(LeaderboardError, match=r"studies.s.tasks.c.column"):
        study_table(cells, models, "s", {"tasks": {"c": {"column": "C"}}}, ["v1"])


def test_rng_is_keyed_per_pair():
    a = rng_for(1, "atlas", "x", "y").integers(0, 100, 5)
    assert (a == rng_for(1, "atlas", "x", "y").integers(0, 100, 5)).all()


def test_fast_resampled_ranks_and_rho_equal_scipy_and_the_analysis_bootstrap():
    from benchval.analysis.bootstrap import bootstrap_spearman, resample_indices
    from benchval.atlas.pairs import bootstrap_rho, resampled_ranks

    rng = np.random.default_rng(5)
    x = rng.integers(0, 6, 25).astype(float)  # ties, and more from the resampling
    y = x + rng.normal(size=25)
    indices = resample_indices(rng, 25, 300)
    assert resampled_ranks(x, indices) == pytest.approx(stats.rankdata(x[indices], axis=1), abs=1e-12)
    expected = bootstrap_spearman(np.column_stack([x, y]), indices)[:, 0, 1]
    assert bootstrap_rho(x, y, indices) == pytest.approx(expected, abs=1e-12, nan_ok=True)
    constant = np.zeros((1, 25), dtype=int)  # every draw the same model: rho undefined
    assert np.isnan(bootstrap_rho(x, y, constant)).all()


def test_agreement_never_ranks_an_undefined_value_below_a_defined_one():
    wide = random_wide(n=30, columns=("crit", "a", "b", "c"), missing=0.0)
    wide["c"] = 1.0  # constant: tau and rho undefined
    table = agreement_validity(wide, "crit", ["a", "b", "c"], {"n_bootstrap": 50, "ci_level": 0.95, "seed": 1})
    row = table.set_index("benchmark")
    assert np.isnan(row.at["c", "validity_rank"]) and np.isnan(row.at["c", "agreement_rank"])
    assert sorted(row["validity_rank"].dropna()) == [1.0, 2.0]
