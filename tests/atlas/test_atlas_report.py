"""The atlas report page is written from the outputs: every table on it comes from the CSV it names, and every
sentence about a benchmark from its intervals and n."""

import numpy as np
import pandas as pd

from benchval.atlas.report import rank_groups, report_html, report_page, verdict


def pair_row(**values):
    row = {
        "rho": 0.6,
        "ci_low": 0.3,
        "ci_high": 0.8,
        "n_models": 40,
        "rho_beyond_g": 0.05,
        "rho_beyond_g_ci_low": -0.2,
        "rho_beyond_g_ci_high": 0.3,
        "n_beyond_g": 30,
        "rho_same_population": 0.55,
        "rho_beyond_size": 0.5,
        "rho_beyond_size_ci_low": 0.2,
        "rho_beyond_size_ci_high": 0.7,
        "n_beyond_size": 35,
        "rho_beyond_g_size": 0.02,
        "rho_beyond_g_size_ci_low": -0.3,
        "rho_beyond_g_size_ci_high": 0.3,
        "n_beyond_g_size": 25,
    }
    return {**row, **values}


def test_verdicts_follow_the_intervals_and_the_minimum_n():
    assert verdict(pd.Series(pair_row()), 20).startswith("explained by general capability")  # 0.30 < 0.55
    wide = pair_row(rho_beyond_g_ci_high=0.7)  # the interval holds 0 and the raw 0.55: too wide to tell
    assert verdict(pd.Series(wide), 20).startswith("not shown beyond general capability")
    assert verdict(pd.Series(pair_row(rho_beyond_g_ci_low=0.1)), 20) == "predicts beyond general capability"
    assert verdict(pd.Series(pair_row(n_beyond_g=12)), 20).startswith("no claim: rho beyond g on 12 models")
    assert verdict(pd.Series(pair_row(ci_low=-0.1)), 20) == "no association distinguishable from 0"
    assert verdict(pd.Series(pair_row(rho_beyond_g=np.nan)), 20).startswith("no claim")


def test_ranks_are_tie_groups_of_the_beyond_g_intervals():
    ranked = pd.DataFrame(
        [
            {"predictor": "a", **pair_row(rho_beyond_g=0.6, rho_beyond_g_ci_low=0.4, rho_beyond_g_ci_high=0.8)},
            {"predictor": "b", **pair_row(rho_beyond_g=0.5, rho_beyond_g_ci_low=0.3, rho_beyond_g_ci_high=0.7)},
            {"predictor": "c", **pair_row(rho_beyond_g=0.1, rho_beyond_g_ci_low=-0.1, rho_beyond_g_ci_high=0.25)},
        ]
    )
    # a and b overlap (0.4 < 0.7): one group; c lies below b's interval (0.3 > 0.25): a group of its own
    assert rank_groups(ranked).to_dict() == {"a": "1-2", "b": "1-2", "c": "3"}


def test_report_page_leads_with_incremental_validity_and_reads_its_numbers_from_the_outputs(tmp_path):
    predictors = pd.DataFrame(
        [
            {
                "criterion": "arena_elo",
                "predictor": "MT-bench",
                "group_a": "mtbench",
                "method_a": "llm_judge",
                "method_b": "human_preference",
                "rank": 1.0,
                "rank_note": "",
                **pair_row(rho_beyond_g=0.41, rho_beyond_g_ci_low=0.12, rho_beyond_g_ci_high=0.66),
                "q_beyond_g": 0.01,
            },
            {
                "criterion": "arena_elo",
                "predictor": "HFV1_MMLU",
                "group_a": "hf_open_llm_v1",
                "method_a": "multiple_choice",
                "method_b": "human_preference",
                "rank": 2.0,
                "rank_note": "",
                **pair_row(),
                "q_beyond_g": 0.6,
            },
            {
                "criterion": "arena_elo",
                "predictor": "OC_x",
                "group_a": "oc",
                "method_a": "exact_match",
                "method_b": "human_preference",
                "rank": np.nan,
                "rank_note": "rho_beyond_g on 12 models (a headline needs 20)",
                **pair_row(n_beyond_g=12),
                "q_beyond_g": np.nan,
            },
        ]
    )
    pairs = pd.DataFrame(
        [
            {
                "column_a": "HFV1_HellaSwag",
                "column_b": "HFV2_MUSR",
                "group_a": "v1",
                "group_b": "v2",
                "lead_of_group_pair": True,
                "p_fdr": 0.001,
                **pair_row(rho=0.5212345),
                "q_beyond_g": 0.4,
            },
        ]
    )
    frames = {
        "counts": pd.DataFrame({"count": ["models"], "value": [2760], "what": ["canonical ids"]}),
        "obs_agreement": pd.DataFrame({"field": ["family"], "n_models": [148], "rate": [147 / 148]}),
        "obs_disagreements": pd.DataFrame({"model": ["m"]}),
        "merges": pd.DataFrame({"canonical_id": ["a", "b"]}),
        "unresolved": pd.DataFrame({"canonical_id": ["c"]}),
        "intervals": pd.DataFrame(
            {
                "benchmark": ["hellaswag"],
                "downstream": ["musr"],
                "rho": [0.48],
                "ci_low": [0.3],
                "ci_high": [0.6],
                "n_models": [101],
            }
        ),
        "crosscheck": pd.DataFrame({"predictor": ["x"], "rho_leaderboard": [0.4]}),
        "human_preference": predictors,
        "agreement": pd.DataFrame(
            {
                "criterion": ["arena_elo"],
                "benchmark": ["MT-bench"],
                "rank_shift": [-86.0],
                "moved": [False],
                "reference": ["a;b"],
            }
        ),
        "pairs": pairs,
        "scree": pd.DataFrame(
            {
                "factor": [1, 2],
                "eigenvalue": [8.5, 0.8],
                "variance_explained": [0.71, 0.07],
                "cumulative": [0.71, 0.78],
                "n_models": [117, 117],
                "n_columns": [12, 12],
            }
        ),
        "loadings": pd.DataFrame({"column": ["HFV2_MUSR"], "loading_1": [0.57], "uniqueness": [0.65]}),
        "g_check": pd.DataFrame(
            {
                "spearman_g_vs_complete_case_pc1": [0.9965],
                "max_abs_rank_difference": [8.0],
                "median_abs_rank_difference": [2.0],
                "n_models": [117],
            }
        ),
        "identity": pd.DataFrame(
            {
                "measure": ["merge_precision"],
                "value": [1.0],
                "ci_low": [1.0],
                "ci_high": [1.0],
                "numerator": [231],
                "denominator": [231],
                "n_names": [300],
                "what": ["w"],
            }
        ),
        "identity_blind": pd.DataFrame(
            {
                "measure": ["merge_precision"],
                "value": [0.9],
                "ci_low": [1.0],
                "ci_high": [1.0],
                "numerator": [231],
                "denominator": [231],
                "n_names": [300],
                "what": ["w"],
            }
        ),
        "identity_agreement": pd.DataFrame(
            {"measure": ["family_kappa"], "value": [0.82], "count": [253], "of": [300], "what": ["w"]}
        ),
        "overlaps": pd.DataFrame(
            {"leaderboard_a": ["chatbot_arena"], "leaderboard_b": ["hf_open_llm_v2"], "shared_models": [36]}
        ),
        "g_choice": pd.DataFrame(
            [
                {
                    "column_a": "HFV1_HellaSwag",
                    "column_b": "HFV2_MUSR",
                    "g": name,
                    "n_pair": 101,
                    "coverage": coverage,
                    "chosen": name == "study_pc",
                    "role": role,
                    "why": "covers the most models (101; next study_factor: 101)" if name == "study_pc" else "",
                    "spearman_with_study_pc": np.nan if name == "study_pc" else 0.55,
                    **pair_row(
                        rho=0.48, ci_low=0.3, ci_high=0.6, n_models=101, rho_beyond_g=beyond, n_beyond_g=coverage
                    ),
                }
                for name, coverage, role, beyond in [
                    ("study_pc", 101, "headline", 0.11),
                    ("study_factor", 101, "specification", 0.13),
                    ("atlas", 49, "sensitivity", 0.53),
                ]
            ]
        ),
        "mtmm_blocks": pd.DataFrame(
            {
                "block": [
                    "monotrait-heteromethod",
                    "monotrait-monomethod",
                    "heterotrait-monomethod",
                    "heterotrait-heteromethod",
                    "no method",
                ],
                "n_pairs": [3, 10, 400, 900, 0],
                "median_rho": [0.8, 0.9, 0.61, 0.42, np.nan],
                "q1": [0.7, 0.8, 0.4, 0.2, np.nan],
                "q3": [0.9, 0.95, 0.8, 0.6, np.nan],
            }
        ),
        "identity_targeted": pd.DataFrame(
            {
                "sample": ["targeted"],
                "measure": ["recall"],
                "value": [0.95],
                "numerator": [157],
                "denominator": [165],
                "wilson_low": [0.907],
                "wilson_high": [0.975],
            }
        ),
        "study_models": pd.DataFrame(
            {"step": ["in both", "with a family", "sized"], "n_models": [117, 101, 90], "left_out": ["", "a; b", ""]}
        ),
    }
    inputs = {}
    for name, frame in frames.items():
        inputs[name] = tmp_path / f"{name}.csv"
        frame.to_csv(inputs[name], index=False)
    settings = {
        "criterion": "arena_elo",
        "min_headline_n": 20,
        "top": 15,
        "alpha": 0.05,
        "study_predictors": ["hellaswag"],
        "study_criteria": ["musr"],
        "study_columns": {"hellaswag": "HFV1_HellaSwag", "musr": "HFV2_MUSR"},
    }
    page = report_page(inputs, settings)
    identity = page.split("## Model identity")[1].split("## ")[0]
    assert "blind labels alone" in identity and "0.900 [1.000, 1.000]" in identity  # the blind table is shown
    assert "family_kappa" in identity and "253" in identity
    assert "| targeted | recall | 0.95 | 157 | 165 | 0.907 | 0.975 |" in identity
    sections = [line for line in page.splitlines() if line.startswith("## ")]
    assert sections[0].startswith("## Incremental validity")
    # rank 1 shares its tie group with rank 2: their beyond-g intervals overlap
    row = "| 1 | 1-2 | MT-bench | mtbench | llm_judge | human_preference | 0.60 [0.30, 0.80] n=40 | 0.55 n=30 |"
    assert row + " 0.41 [0.12, 0.66] n=30 |" in page
    assert "predicts beyond general capability" in page and "explained by general capability" in page
    assert "not distinguishable from MT-bench" not in page.split("| 1 | 1-2 | MT-bench")[1].split("\n")[0]
    assert (
        "Not ranked (1)" in page
        and "OC_x" not in page.split("Not ranked")[0].split("## open_llm")[0].split("| 2 |")[-1]
    )
    assert "0.52 [0.30, 0.80] n=40" in page and "0.48 [0.30, 0.60] n=101" in page  # all shared vs study
    study = page.split("## open_llm")[1].split("## ")[0]
    # the headline is the chosen g (the study PC), its claim from it alone; the atlas g a sensitivity row
    assert "study g (first principal component)" in study and "covers the most models (101" in study
    assert "| 0.11 [-0.20, 0.30] n=101 | explained by general capability" in study
    assert "0.53 [-0.20, 0.30] n=49 (g for 49 of 101; rho with headline g 0.55)" in study
    assert "sensitivity: beyond atlas g (other leaderboards)" in study
    assert (
        "| claim under the specification |" in study
        and "(g for 101 of 101; rho with headline g 0.55) | same |" in study
    )
    mtmm = page.split("## Method apart from trait")[1].split("## ")[0]
    assert "sharing a method: 0.61; of two benchmarks by different methods: 0.42" in mtmm
    assert "101 models in both Open LLM v1 and v2 with a family, of 117 in both (2 left out" in page
    assert "first factor explains 71%" in page and "Spearman 0.997" in page
    assert "1.000 [1.000, 1.000]" in page and "| chatbot_arena | hf_open_llm_v2 | 36 |" in page
    assert "excludes 0: none (0 of 1 ranked)" in page
    html = report_html(inputs, settings)
    assert "<h2>Counts (counts.csv)</h2>" in html and "<script" not in html


def test_the_group_pair_count_is_order_free_like_the_fdr_it_describes():
    """'467 group pairs' counted A ~ B and B ~ A twice while the FDR tests one hypothesis per unordered pair."""
    from benchval.atlas.groups import group_pair_labels
    from benchval.atlas.report import testing_section

    pairs = pd.DataFrame(
        {
            "group_a": ["A", "B", "A"],
            "group_b": ["B", "A", "A"],
            "lead_of_group_pair": [True, False, True],
            "p_fdr": [0.01, 0.2, 0.5],
            "q_beyond_g": [0.5, 0.5, 0.5],
        }
    )
    sentence = testing_section(pairs, 0.05)[1]
    assert group_pair_labels(pairs["group_a"], pairs["group_b"]).nunique() == 2
    assert sentence.startswith("3 pairs in 2 group pairs; 1 pairs lie within one group")
