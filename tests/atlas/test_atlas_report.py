"""The atlas report page is written from the outputs: every table on it comes from the CSV it names."""

import pandas as pd

from benchval.atlas.report import report_html, report_page


def test_report_page_reads_its_numbers_from_the_outputs(tmp_path):
    frames = {
        "counts": pd.DataFrame({"count": ["models"], "value": [2760], "what": ["canonical ids"]}),
        "obs_agreement": pd.DataFrame({"field": ["family"], "n_models": [148], "n_agree": [147], "rate": [147 / 148]}),
        "obs_disagreements": pd.DataFrame(
            {
                "model": ["m"],
                "field": ["size_b"],
                "obsscaling": [7.3],
                "registry": [7.0],
                "registry_rule": ["t"],
                "why": ["w"],
            }
        ),
        "merges": pd.DataFrame({"canonical_id": ["a", "b"]}),
        "unresolved": pd.DataFrame({"canonical_id": ["c"]}),
        "intervals": pd.DataFrame(
            {
                "benchmark": ["hellaswag", "mmlu"],
                "downstream": ["musr", "bbh"],
                "rho": [0.5212345, 0.9],
                "ci_low": [0.37, 0.8],
                "ci_high": [0.66, 0.95],
                "n_models": [101, 101],
            }
        ),
        "crosscheck": pd.DataFrame({"predictor": ["x"], "rho_leaderboard": [0.4], "rho_obsscaling": [0.41]}),
        "human_preference": pd.DataFrame(
            {
                "criterion": ["arena_elo", "other"],
                "rank": [1, 1],
                "predictor": ["MT-bench", "zzz"],
                "n_models": [16, 5],
                "rho": [0.83, 0.1],
                "ci_low": [0.56, 0.0],
                "ci_high": [0.93, 0.2],
                "p_fdr": [0.001, 0.5],
                "n_models_sized": [16, 5],
                "rho_partial_log_size": [0.72, 0.1],
                "p_partial_fdr": [0.02, 0.5],
            }
        ),
        "agreement": pd.DataFrame(
            {"criterion": ["arena_elo"], "benchmark": ["MT-bench"], "rank_shift": [-86.0], "moved": [True]}
        ),
    }
    inputs = {}
    for name, frame in frames.items():
        inputs[name] = tmp_path / f"{name}.csv"
        frame.to_csv(inputs[name], index=False)
    page = report_page(inputs, "arena_elo", "musr")
    assert "| hellaswag | musr | 0.521 | 0.37 | 0.66 | 101 |" in page
    assert "mmlu | bbh" not in page  # only the configured criterion
    assert "| 1 | MT-bench | 16 | 0.83 |" in page and "zzz" not in page
    assert "2 models absorbed more than one raw name" in page and "unresolved fields: 1" in page
    assert "more than the configured number of places: MT-bench." in page
    html = report_html(inputs, "arena_elo", "musr")
    assert "<h2>Counts (counts.csv)</h2>" in html and "<td>MT-bench</td>" in html and "<script" not in html
