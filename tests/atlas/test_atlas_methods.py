"""Issue 43: method apart from trait, the g a pair leaves its own measures out of, the headline g's rule,
the multitrait-multimethod blocks and the identity samples' scores."""

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from benchval.atlas.g_choice import choose, one_factor_scores, principal_component
from benchval.atlas.general_factor import (
    FactorSettings,
    GeneralFactor,
    fit_without_heywood,
    one_factor_loadings,
    positive_definite,
)
from benchval.atlas.identity_samples import risk_key, sample_scores, targeted_pairs
from benchval.atlas.incremental import population
from benchval.atlas.methods import MethodTableError, identical_copies, load_methods, trait_groups
from benchval.atlas.mtmm import block_summary, labelled_pairs
from benchval.atlas.predictors import counted_criterion, ranked, with_methods
from benchval.plumbing.folders import REPO_ROOT

TABLE = REPO_ROOT / "config" / "atlas" / "column_methods.csv"


def method_table(tmp_path, rows):
    path = tmp_path / "methods.csv"
    pd.DataFrame(rows, columns=["column", "leaderboard", "trait", "method", "evidence"]).to_csv(path, index=False)
    return path


def test_the_reviewed_table_gives_the_issues_columns_one_trait_across_boards():
    methods = load_methods(TABLE)
    assert methods.at["HFV1_HellaSwag", "trait"] == methods.at["HELM_HellaSwag", "trait"] == "hellaswag"
    assert methods.at["olmes_winogrande", "trait"] == methods.at["HFV1_Winogrande", "trait"]
    assert methods.at["olmes_mmlu", "trait"] == methods.at["HFV1_MMLU", "trait"] == "mmlu"
    assert methods.at["arena_elo", "method"] == "human_preference"
    assert methods.at["arena_hard", "method"] == methods.at["alphacaeval_v2lc", "method"] == "llm_judge"


def test_a_method_table_missing_a_column_or_with_an_unknown_method_is_rejected(tmp_path):
    good = ["a", "lb", "a", "llm_judge", "e"]
    with pytest.raises(MethodTableError, match=r"no row for the atlas column\(s\) \['b'\]"):
        load_methods(method_table(tmp_path, [good]), ["a", "b"])
    with pytest.raises(MethodTableError, match=r"line 2: method 'vibes'"):
        load_methods(method_table(tmp_path, [["a", "lb", "a", "vibes", "e"]]), ["a"])
    with pytest.raises(MethodTableError, match=r"line 2: empty \['evidence'\]"):
        load_methods(method_table(tmp_path, [["a", "lb", "a", "llm_judge", ""]]), ["a"])


def test_copies_are_found_by_identical_values_up_to_scale_and_share_a_trait():
    rng = np.random.default_rng(0)
    source = pd.Series(rng.uniform(20, 90, size=30)).round(2)
    copy = (source / 100).where(np.arange(30) < 9)  # BLZ: 0.8416 for 84.16, on 9 shared models
    copy.iloc[0] = 0.3566  # one re-evaluation among them
    wide = pd.DataFrame({"v1": source, "copy": copy, "other": source + 0.05})
    assert identical_copies(wide) == [("v1", "copy")]
    assert identical_copies(wide, share=0.95) == []  # 8 of 9 agree: below 95 %
    methods = pd.DataFrame({"trait": ["v1", "copy", "other"]}, index=["v1", "copy", "other"])
    traits = trait_groups(methods, identical_copies(wide))
    assert traits["copy"] == traits["v1"] != traits["other"]


def test_a_pairs_g_leaves_out_its_traits_measured_on_other_boards():
    """g for HellaSwag ~ MuSR must not contain HELM's HellaSwag (another board, one trait)."""
    rng = np.random.default_rng(1)
    base = rng.normal(size=60)
    wide = pd.DataFrame({c: base + rng.normal(size=60) for c in ["hs_v1", "musr", "hs_helm", "x1", "x2", "x3"]})
    groups = {"hs_v1": "v1", "musr": "v2", "hs_helm": "helm", "x1": "o1", "x2": "o2", "x3": "o3"}
    traits = {"hs_v1": "hellaswag", "hs_helm": "hellaswag", "musr": "musr", "x1": "x1", "x2": "x2", "x3": "x3"}
    people = population(wide, None, groups, FactorSettings(min_models=10), traits)
    assert people.left_out("hs_v1", "musr") == {"hs_v1", "musr", "hs_helm"}
    without_traits = population(wide, None, groups, FactorSettings(min_models=10))
    assert "hs_helm" not in without_traits.left_out("hs_v1", "musr")  # without the table it stayed in g
    assert not np.allclose(people.g_without("hs_v1", "musr"), without_traits.g_without("hs_v1", "musr"))


def heywood_matrix():
    """Column 0 correlates 0.8 with four columns that correlate 0.6 among themselves: l_0^2 = 0.64 / 0.6 > 1."""
    corr = np.full((5, 5), 0.6)
    corr[0, :] = corr[:, 0] = 0.8
    np.fill_diagonal(corr, 1.0)
    return corr


def test_a_heywood_column_is_listed_left_out_and_the_rest_refit_never_clipped():
    corr = heywood_matrix()
    assert np.linalg.eigvalsh(corr).min() > 0  # positive definite: the Heywood case is the model's, not the matrix's
    unclipped = one_factor_loadings(corr, 5000, tolerance=1e-12)
    assert unclipped[0] ** 2 > 1.0  # the old fit held this at 0.999 and kept it in g
    loadings, heywood = fit_without_heywood(corr, 5000)
    assert heywood == [0] and np.isnan(loadings[0])
    np.testing.assert_allclose(loadings[1:], np.sqrt(0.6), atol=1e-6)
    rng = np.random.default_rng(2)
    wide = pd.DataFrame(rng.multivariate_normal(np.zeros(5), corr, size=4000), columns=list("habcd"))
    fit = GeneralFactor(wide, FactorSettings(min_models=10)).fit(())
    assert fit["g_heywood_columns"] == "h" and fit["g_columns"] == 4


def test_the_one_factor_fit_equals_statsmodels_minres_on_a_complete_matrix():
    from statsmodels.multivariate.factor import Factor

    rng = np.random.default_rng(4)
    base = rng.normal(size=200)
    corr = np.corrcoef(
        np.column_stack([base * (0.4 + 0.15 * i) + rng.normal(size=200) for i in range(6)]), rowvar=False
    )
    reference = Factor(corr=corr, n_factor=1, method="pa", smc=True).fit(
        maxiter=10000, tol=1e-12
    )  # iterated PA = MINRES
    np.testing.assert_allclose(
        one_factor_loadings(corr, 5000, tolerance=1e-12), np.abs(reference.loadings[:, 0]), atol=1e-6
    )


def test_an_indefinite_correlation_matrix_is_projected_by_eigenvalue_clipping_with_unit_diagonal():
    """By hand: eigenvalues -0.8, 1.9, 1.9; clipping -0.8 (eigenvector (1, -1, 1)/sqrt 3) to 0 adds 0.8/3 to
    the diagonal and -+0.8/3 off it; rescaled to unit diagonal, 0.9 -> (0.9 - 0.8/3) / (1 + 0.8/3) = 0.5."""
    corr = np.array([[1.0, 0.9, -0.9], [0.9, 1.0, 0.9], [-0.9, 0.9, 1.0]])
    assert np.linalg.eigvalsh(corr).min() == pytest.approx(-0.8)
    projected, shift = positive_definite(corr)
    np.testing.assert_allclose(projected, [[1, 0.5, -0.5], [0.5, 1, 0.5], [-0.5, 0.5, 1]], atol=1e-3)
    assert np.linalg.eigvalsh(projected).min() > 0 and shift == pytest.approx(0.4, abs=1e-3)
    assert positive_definite(heywood_matrix())[1] == pytest.approx(0.0)  # already positive definite: unmoved
    gappy = heywood_matrix()
    gappy[1, 2] = gappy[2, 1] = np.nan  # a pair with too few shared models stays missing
    assert np.isnan(positive_definite(gappy)[0][1, 2])


def test_the_headline_g_covers_most_models_then_agrees_best_with_the_other_source_then_explains_most():
    rows = [
        {"g": "study_pc", "coverage": 117, "variance_explained": 0.6, "spearman_with_atlas": 0.5},
        {"g": "study_factor", "coverage": 117, "variance_explained": 0.55, "spearman_with_atlas": 0.57},
        {"g": "atlas", "coverage": 49, "variance_explained": 0.8, "spearman_with_study_pc": 0.5},
    ]
    assert choose(rows)[0] == "study_factor" and "(Spearman 0.57 vs 0.50)" in choose(rows)[1]
    rows[1]["spearman_with_atlas"] = 0.5
    assert choose(rows)[0] == "study_pc" and "explains more variance (0.60 vs 0.55)" in choose(rows)[1]
    rows[0]["coverage"] = 100
    assert choose(rows)[0] == "study_factor" and "covers the most models (117" in choose(rows)[1]


def test_one_factor_and_principal_component_agree_with_sklearn_on_a_one_factor_block():
    from sklearn.decomposition import PCA

    rng = np.random.default_rng(3)
    base = rng.normal(size=100)
    wide = pd.DataFrame({f"c{i}": base * (0.5 + i / 10) + rng.normal(size=100) for i in range(6)})
    factor, share, heywood = one_factor_scores(wide, ["c0", "c1"])
    pc, pc_share = principal_component(wide, ["c0", "c1"])
    ranks = wide.drop(columns=["c0", "c1"]).rank()
    z = (ranks - ranks.mean()) / ranks.std(ddof=0)
    assert pc_share == pytest.approx(PCA(n_components=1).fit(z).explained_variance_ratio_[0])
    assert abs(np.corrcoef(factor, pc)[0, 1]) > 0.98 and heywood == [] and 0 < share < 1


def test_same_method_predictors_are_never_ranked_and_a_pair_of_two_criteria_counts_once():
    methods = pd.DataFrame(
        {"method": ["llm_judge", "llm_judge", "multiple_choice", "human_preference"]},
        index=["arena_hard", "alpaca", "mmlu", "arena_elo"],
    )
    table = pd.DataFrame(
        {
            "criterion": ["arena_hard", "arena_hard", "arena_elo", "arena_hard"],
            "predictor": ["alpaca", "mmlu", "arena_hard", "arena_elo"],
            "group_a": ["alpaca", "v1", "ah", "arena"],
            "rho": [0.9, 0.6, 0.8, 0.8],
            "rho_beyond_g": [0.5, 0.2, 0.3, 0.3],
            "n_beyond_g": [24, 40, 40, 40],
            "note": ["", "", "", ""],
        }
    )
    table = with_methods(table, methods)
    counted = counted_criterion(table, ["arena_elo", "arena_hard"])
    out = pd.concat([ranked(part, 20, counted_under=counted) for _, part in table.groupby("criterion")])
    out = out.set_index(["criterion", "predictor"])
    assert np.isnan(out.loc[("arena_hard", "alpaca"), "rank"])
    assert out.loc[("arena_hard", "alpaca"), "rank_note"].startswith("same method as the criterion (llm_judge)")
    assert out.loc[("arena_hard", "mmlu"), "rank"] == 1
    assert out.loc[("arena_elo", "arena_hard"), "rank"] == 1  # counted under the first-listed criterion
    assert np.isnan(out.loc[("arena_hard", "arena_elo"), "rank"])
    assert "counted once, under arena_elo" in out.loc[("arena_hard", "arena_elo"), "rank_note"]


def test_mtmm_blocks_follow_campbell_and_fiske():
    methods = pd.DataFrame(
        {
            "trait": ["hellaswag", "hellaswag", "mmlu", "alpaca"],
            "method": ["multiple_choice", "exact_match", "multiple_choice", "llm_judge"],
        },
        index=["hs_mc", "hs_em", "mmlu", "alpaca"],
    )
    pairs = pd.DataFrame(
        {
            "column_a": ["hs_mc", "hs_mc", "hs_em", "mmlu", "x"],
            "column_b": ["hs_em", "mmlu", "mmlu", "alpaca", "mmlu"],
            "rho": [0.9, 0.7, 0.5, 0.3, 0.1],
            "n_models": [30] * 5,
        }
    )
    blocks = labelled_pairs(pairs, methods)["block"].tolist()
    assert blocks == [
        "monotrait-heteromethod",
        "heterotrait-monomethod",
        "heterotrait-heteromethod",
        "heterotrait-heteromethod",
        "no method",
    ]
    summary = block_summary(labelled_pairs(pairs, methods)).set_index("block")
    assert summary.at["heterotrait-heteromethod", "median_rho"] == pytest.approx(0.4)
    assert summary.at["no method", "n_pairs"] == 1


def test_risk_key_groups_spellings_dates_and_hf_suffixes():
    assert risk_key("meta-llama/Llama-2-7b-hf") == risk_key("Llama 2 (7B)") == risk_key("llama2_7b")
    assert risk_key("reka-core-20240501") == risk_key("Reka_Core")
    assert risk_key("gpt-4o") != risk_key("gpt-4o-mini")


def test_identity_sample_scores_match_statsmodels_wilson_and_a_hand_count():
    labels = pd.DataFrame(
        {
            "group": ["g1", "g1", "g1", "g2", "g2", "g3"],
            "raw_name": ["A", "a", "A-x", "B", "b", "C?"],
            "model": ["m1", "m1", "m2", "m3", "m3", "?"],
            "certain": ["True", "True", "True", "True", "True", "False"],
        }
    )
    names = pd.DataFrame({"raw_name": ["A", "a", "A-x", "B", "b"], "canonical_id": ["m1", "m1", "m1", "m3", "x"]})
    pairs = targeted_pairs(labels, names)
    # g1: (A, A-x) joined but different; (A, a) joined, same; (A-x, a) joined, different; g2: (B, b) same, not joined
    assert len(pairs) == 4 and pairs["same"].sum() == 2 and pairs["joined"].sum() == 3
    precision = pd.DataFrame({"same": ["True", "False", "True"], "canonical_id": ["x", "y", "z"]})
    scores = sample_scores(pairs, precision, 0.95, 200, 0).set_index(["sample", "measure"])
    recall = scores.loc[("targeted", "recall")]
    assert (recall["numerator"], recall["denominator"]) == (1, 2)
    low, high = proportion_confint(1, 2, alpha=0.05, method="wilson")
    assert recall["wilson_low"] == pytest.approx(low) and recall["wilson_high"] == pytest.approx(high)
    assert scores.loc[("targeted", "precision"), "value"] == pytest.approx(1 / 3)
    assert scores.loc[("random joined pairs", "precision"), "value"] == pytest.approx(2 / 3)


def test_the_mtmm_figure_is_legible_with_every_method_pair_filled():
    from itertools import combinations_with_replacement

    from benchval.analysis.figures.drawing import plt
    from benchval.analysis.figures.legibility import layout_problems
    from benchval.atlas.methods import METHODS
    from benchval.atlas.mtmm import BLOCKS
    from benchval.atlas.mtmm_figure import mtmm_figure

    rows = [
        {"method_1": a, "method_2": b, "block": block, "n_pairs": 1234, "median_rho": -0.55}
        for a, b in combinations_with_replacement(sorted(METHODS), 2)
        for block in (BLOCKS[0] if a != b else BLOCKS[1], BLOCKS[2] if a == b else BLOCKS[3])
    ]
    summary = pd.DataFrame({"block": BLOCKS, "n_pairs": [3, 33, 1183, 3047], "median_rho": 0.7, "q1": 0.5, "q3": 0.9})
    figure = mtmm_figure(pd.DataFrame(rows), summary)
    assert layout_problems(figure, dpi=150) == []
    plt.close(figure)
