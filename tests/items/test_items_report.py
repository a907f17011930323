"""The report's sentences follow the intervals, not the point estimates."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.items.report import _k_sentence, difference_verdict


def test_verdicts():
    assert difference_verdict(-0.3, -0.01) == "lower"
    assert difference_verdict(0.01, 0.3) == "higher"
    assert difference_verdict(-0.2, 0.1) == "not distinguishable"
    assert difference_verdict(float("nan"), 0.1) == "undefined"


def test_sentence_reads_the_interval():
    row = pd.Series(
        {
            "rho": 0.9,
            "ci_low": 0.7,
            "ci_high": 0.95,
            "diff_vs_full": 0.05,
            "diff_ci_low": -0.02,
            "diff_ci_high": 0.2,
            "mae_vs_full": 0.1,
        }
    )
    text = _k_sentence("criterion", row, 0.85)
    assert "not distinguishable" in text and "beats" not in text  # a higher point estimate is not a win
    assert "beats" in _k_sentence(
        "criterion", row.assign(diff_ci_low=0.01) if False else row.replace(-0.02, 0.01), 0.85
    )


def test_report_page_from_study_tables(tmp_path):
    from benchval.items.report import write_report

    study = tmp_path / "s"
    study.mkdir()
    curve = pd.DataFrame(
        [
            {
                "method": m,
                "k": k,
                "n_items": n,
                "rho": 0.8,
                "ci_low": 0.6,
                "ci_high": 0.9,
                "diff_vs_full": d,
                "diff_ci_low": lo,
                "diff_ci_high": hi,
                "mae_vs_full": 0.02,
                "n_models": 20,
            }
            for m, k, n, d, lo, hi in [
                ("random", "100", 100, -0.1, -0.2, -0.01),
                ("irt", "100", 100, 0.0, -0.1, 0.1),
                ("criterion", "100", 100, 0.1, 0.02, 0.2),
                ("full", "all", 500, 0, 0, 0),
            ]
        ]
    ).assign(benchmark="b", criterion="c")
    curve.to_csv(study / "validity_curve.csv", index=False)
    summary = {
        "benchmark": "b",
        "criterion": "c",
        "n_models": 20,
        "n_families": 5,
        "n_items": 500,
        "full_rho": 0.8,
        "full_ci_low": 0.6,
        "full_ci_high": 0.9,
        "n_items_fdr_significant": 7,
        "n_items_defined": 480,
        "fdr_alpha": 0.05,
        "contribution_sum": 0.75,
        "top10pct_contribution_share": 0.4,
        "n_items_negative_contribution": 12,
        "negative_contribution_sum": -0.05,
    }
    for m in ("random", "irt", "criterion"):
        summary.update(
            {
                f"k100_{m}_rho": 0.8,
                f"k100_{m}_ci_low": 0.6,
                f"k100_{m}_ci_high": 0.9,
                f"k100_{m}_diff_vs_full": 0.0,
                f"k100_{m}_diff_ci_low": -0.1,
                f"k100_{m}_diff_ci_high": 0.1,
                f"k100_{m}_p_perm_rho": 0.01,
                f"k100_{m}_p_perm_gain": 0.5,
                f"k100_{m}_verdict": "keeps",
            }
        )
    pd.DataFrame([summary]).to_csv(study / "summary.csv", index=False)
    pd.DataFrame(
        [
            {
                "benchmark": "b",
                "chosen_model": "1PL",
                "1PL_at_bound": 3,
                "2PL_at_bound": 40,
                "1PL_top100_at_bound": 0,
                "2PL_top100_at_bound": 30,
                "chosen_at_bound": 3,
                "selectable_items": 497,
                "selectable_at_bound": 0,
            }
        ]
    ).to_csv(study / "irt_choice.csv", index=False)
    pd.DataFrame(
        [
            {
                "task": "b",
                "role": "benchmark",
                "signal": 0.1,
                "noise_item": 0.01,
                "noise_seed": np.nan,
                "noise_checkpoint": np.nan,
                "snr": 10.0,
                "reliability": 0.9,
                "decision_accuracy_10": np.nan,
            }
        ]
    ).to_csv(study / "snr.csv", index=False)
    pd.DataFrame(
        [
            {
                "relation": "snr vs validity",
                "n_benchmarks": 1,
                "spearman_rho": np.nan,
                "ci_low": np.nan,
                "ci_high": np.nan,
                "interval": "fewer than 3 benchmarks: no relation",
            }
        ]
    ).to_csv(study / "snr_relation.csv", index=False)
    recovery = {
        "design": "d",
        "gate": True,
        "model": "2PL",
        "n_respondents": 9,
        "n_items": 5,
        "r_difficulty": 0.99,
        "r_discrimination": 0.9,
        "r_theta": 0.95,
        "converged": True,
    }
    recovery = pd.DataFrame([recovery])
    recovery.to_csv(tmp_path / "recovery.csv", index=False)
    fit = pd.DataFrame(
        [
            {
                "model": "2PL",
                "n_respondents": 9,
                "n_items": 5,
                "log_likelihood": -10.0,
                "aic": 40.0,
                "bic": 45.0,
                "infit_outside_0.7_1.3": 1,
            }
        ]
    )
    fit.to_csv(tmp_path / "fit.csv", index=False)
    out = tmp_path / "report.md"
    write_report(
        {"s": str(study)},
        {"s": {"benchmark": "b", "criterion": "c"}},
        str(tmp_path / "recovery.csv"),
        [["src", "b", str(tmp_path / "fit.csv")]],
        str(out),
    )
    text = out.read_text()
    assert "7 of its 480 items" in text and "the top 10% of items carry 40%" in text and "12 items work against" in text
    assert "A random 100-item subset gives rho = 0.80 [0.60, 0.90]" in text and "does not keep the validity" in text
    assert "not distinguishable" in text and "beats the full benchmark's rho of 0.80" in text
    assert "| src | b | 2PL |" in text
    assert "| b | 1PL | 3 (0) | 40 (30) | 497 | 0 |" in text  # the IRT choice with its items at a bound
    assert "| b | benchmark | 0.1000 | 0.0100 | n/a | n/a | 10.00 | 0.900 | n/a |" in text
    assert "0.80; diff +0.00 [-0.10, 0.10], p 0.010 / 0.500, keeps" in text
