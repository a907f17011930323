"""A test per sentence template of the atlas report (issue 43): each builds the sentence from a small table and
checks every count in it against the count taken from the same rows here."""

import pandas as pd

from benchval.atlas.groups import group_pair_labels
from benchval.atlas.report import (
    factor_section,
    g_choice_rows,
    identity_section,
    moved_sentence,
    predictor_sections,
    registry_sentence,
    study_section,
    testing_section as pair_count_section,
    verdict,
)
from tests.atlas.test_atlas_report import pair_row

SETTINGS = {"min_headline_n": 20, "top": 10}


def predictors():
    def row(predictor, rank, note, **values):
        base = {"criterion": "arena_elo", "predictor": predictor, "group_a": predictor, "method_a": "multiple_choice"}
        return {
            **base,
            "method_b": "human_preference",
            "rank": rank,
            "rank_note": note,
            "q_beyond_g": 0.01,
            **pair_row(**values),
        }

    return pd.DataFrame(
        [
            row("p1", 1.0, "", rho_beyond_g=0.4, rho_beyond_g_ci_low=0.1, rho_beyond_g_ci_high=0.6),
            row("p2", 2.0, "", rho_beyond_g=0.05, rho_beyond_g_ci_low=-0.2, rho_beyond_g_ci_high=0.3),
            row("p3", 3.0, "", rho_beyond_g=0.0, rho_beyond_g_ci_low=-0.2, rho_beyond_g_ci_high=0.7),
            row("judge", None, "same method: llm_judge"),
            row("small", None, "on 8 models (a claim needs 20)"),
            row("tiny", None, "on 5 models (a claim needs 20)"),
            row("twice", None, "the pair of two criteria is counted once, under arena_hard"),
            {**row("other", 1.0, ""), "criterion": "arena_hard"},  # another criterion: never counted here
        ]
    )


def test_the_predictor_sentence_counts_the_rows_of_its_own_criterion():
    table = predictors()
    own = table[table["criterion"] == "arena_elo"]
    ranked = own[own["rank"].notna()]
    claims = [verdict(r, 20) for _, r in ranked.iterrows()]
    sentence = predictor_sections(table, "arena_elo", SETTINGS)[1]
    notes = own["rank_note"].fillna("")
    assert sentence.startswith(f"{len(own)} predictors share")
    assert f"; {int(notes.str.startswith('same method').sum())} of them share its method" in sentence
    assert f", and {int(notes.str.contains('counted once').sum())} pairs of two criteria" in sentence
    assert f"cross-method only: {len(ranked)} groups" in sentence
    counts = [sum(c.startswith(word) for c in claims) for word in ("predicts beyond", "explained", "not shown")]
    assert counts == [1, 1, 1]  # the three rows above, one per verdict
    assert f"{counts[0]} predict beyond general capability" in sentence
    assert f"{counts[1]} are explained by general capability" in sentence
    assert f"{counts[2]} are not shown beyond it" in sentence


def test_the_not_ranked_sentence_counts_every_unranked_row_by_reason():
    table = predictors()
    unranked = table[(table["criterion"] == "arena_elo") & table["rank"].isna()]
    sentence = predictor_sections(table, "arena_elo", SETTINGS)[-1]
    assert sentence.startswith(f"Not ranked ({len(unranked)})")
    too_few = int(unranked["rank_note"].str.contains(r"on \d+ models").sum())
    assert f"{too_few} too few models" in sentence and "1 same method" in sentence


def test_the_g_choice_row_counts_coverage_of_the_pairs_models():
    base = {"column_a": "a", "column_b": "b", "n_pair": 101, "why": "stated", **pair_row()}
    choice = pd.DataFrame(
        [
            {**base, "g": "study_factor", "coverage": 101, "chosen": True, "role": "headline"},
            {
                **base,
                "g": "atlas",
                "coverage": 48,
                "chosen": False,
                "role": "sensitivity",
                "spearman_with_study_factor": 0.5,
            },
        ]
    )
    out = g_choice_rows(choice, "a", "b")
    atlas = choice.iloc[1]
    cell = out["sensitivity: beyond atlas g (other leaderboards)"]
    assert f"(g for {atlas['coverage']} of {atlas['n_pair']}; rho with headline g 0.50)" in cell
    assert cell.startswith(f"0.05 [-0.20, 0.30] n={atlas['n_beyond_g']}")


def test_the_study_population_sentence_counts_its_steps_and_the_models_left_out():
    models = pd.DataFrame(
        {"step": ["in both", "with a family"], "n_models": [120, 117], "left_out": ["", "m1; m2; m3"]}
    )
    read = {"pairs": pd.DataFrame(), "g_choice": pd.DataFrame(), "study_models": models}
    settings = {"study_columns": {}, "study_predictors": [], "study_criteria": []}
    sentence = study_section(read, settings)[1]
    n_left = len(models.iloc[1]["left_out"].split("; "))
    assert f"the {models.iloc[1]['n_models']} models in both" in sentence
    assert f"of {models.iloc[0]['n_models']} in both ({n_left} left out without a family" in sentence


def test_the_factor_sentences_count_the_complete_block():
    scree = pd.DataFrame(
        {
            "factor": [1, 2],
            "eigenvalue": [4.2, 0.7],
            "variance_explained": [0.7, 0.12],
            "cumulative": [0.7, 0.82],
            "n_models": [90, 90],
            "n_columns": [6, 6],
            "n_models_with_any_column": [140, 140],
        }
    )
    check = pd.DataFrame(
        [
            {
                "spearman_g_vs_complete_case_pc1": 0.99,
                "max_abs_rank_difference": 7.0,
                "n_models": 90,
                "median_abs_rank_difference": 2.0,
            }
        ]
    )
    parts = factor_section({"scree": scree, "loadings": pd.DataFrame(), "g_check": check})
    assert parts[1].startswith("90 models x 6 columns: the models scoring every column, of 140 with a score")
    assert "largest rank difference 7 of 90 (median 2)" in parts[-1]


def test_the_testing_sentence_counts_pairs_group_pairs_and_discoveries_from_the_same_rows():
    pairs = pd.DataFrame(
        {
            "group_a": ["A", "B", "A", "C"],
            "group_b": ["B", "A", "A", "A"],
            "lead_of_group_pair": [True, False, True, True],
            "p_fdr": [0.01, 0.01, 0.5, 0.02],
            "q_beyond_g": [0.01, 0.5, 0.5, 0.5],
        }
    )
    sentence = pair_count_section(pairs, 0.05)[1]
    leads = pairs[pairs["lead_of_group_pair"]]
    within = int((pairs["group_a"] == pairs["group_b"]).sum())
    groups = group_pair_labels(pairs["group_a"], pairs["group_b"]).nunique()
    assert sentence.startswith(f"{len(pairs)} pairs in {groups} group pairs; {within} pairs lie within one group")
    raw, beyond = int((leads["p_fdr"] < 0.05).sum()), int((leads["q_beyond_g"] < 0.05).sum())
    assert (raw, beyond) == (2, 1)  # the non-lead row's p_fdr 0.01 is not a second discovery
    assert f"(its lead): {raw} raw, {beyond} beyond g" in sentence


def test_the_identity_sentence_counts_the_sampled_names():
    check = pd.DataFrame(
        {
            "measure": ["precision"],
            "value": [0.9],
            "ci_low": [0.8],
            "ci_high": [0.95],
            "numerator": [45],
            "denominator": [50],
            "what": ["joins"],
            "n_names": [60],
        }
    )
    read = {
        "identity": check,
        "identity_blind": check,
        "identity_agreement": pd.DataFrame(
            {"measure": ["kappa"], "value": [0.8], "count": [1], "of": [2], "what": ["x"]}
        ),
        "identity_targeted": pd.DataFrame(),
        "overlaps": pd.DataFrame(),
    }
    sentence = identity_section(read)[1]
    assert sentence.startswith(f"A sample of {check['n_names'].iloc[0]} raw names")


def test_the_registry_sentence_counts_the_rows_of_its_tables():
    merges, unresolved = pd.DataFrame({"model": ["a", "b", "c"]}), pd.DataFrame({"field": ["x"]})
    sentence = registry_sentence(merges, unresolved)
    assert f"{len(merges)} models absorbed" in sentence and f"unresolved fields: {len(unresolved)} " in sentence


def test_the_moved_sentence_counts_moved_among_the_ranked_rows():
    ranked = pd.DataFrame({"benchmark": ["x", "y", "z"], "moved": [True, False, "True"]})
    sentence = moved_sentence(ranked, 4, 20)
    moved = ranked[ranked["moved"] == True]  # noqa: E712 (the csv's bool; the string "True" is not a move)
    assert f"excludes 0: x ({len(moved)} of {len(ranked)} ranked). Not ranked: 4 benchmarks" in sentence
