import zlib

import numpy as np
import pytest
from scipy import stats

from benchval.analysis.revisions import delta_rho, group_comparisons, group_statistics, pair_correlations
from benchval.analysis.settings import AnalysisSettings


def test_group_statistics_hand_case():
    # tasks: O1 O2 R1 R2
    corr = np.array([[1.0, 0.5, 0.2, 0.3],
                     [0.5, 1.0, 0.4, 0.1],
                     [0.2, 0.4, 1.0, 0.6],
                     [0.3, 0.1, 0.6, 1.0]])
    out = group_statistics(corr, 2, 0.9999)
    assert out["mean_z_OO"] == pytest.approx(np.arctanh(0.5))
    assert out["mean_z_RR"] == pytest.approx(np.arctanh(0.6))
    assert out["mean_z_OR"] == pytest.approx(np.mean(np.arctanh([0.2, 0.3, 0.4, 0.1])))
    assert out["diff_OO_minus_RR"] == pytest.approx(np.arctanh(0.5) - np.arctanh(0.6))


def test_group_point_estimate_uses_scipy_correlations(study, settings):
    wide = study.wide("accuracy")
    table = group_comparisons(study, "accuracy", wide, settings)
    overall = table[table.left_out_family == "(none)"].set_index("statistic")
    originals, reworked = ["winogrande", "hellaswag", "siqa", "piqa"], ["winowhat", "goldenswag", "siqa_filtered", "piqa_rup"]
    corr = stats.spearmanr(wide[originals + reworked]).statistic
    oo = np.mean([np.arctanh(corr[i, j]) for i in range(4) for j in range(i + 1, 4)])
    assert overall.at["mean_z_OO", "estimate"] == pytest.approx(oo)
    low, high = overall.at["diff_OO_minus_RR", "ci_low"], overall.at["diff_OO_minus_RR", "ci_high"]
    assert low <= overall.at["diff_OO_minus_RR", "estimate"] <= high
    # one row per statistic for all models and for each of the 6 families left out
    assert sorted(table.left_out_family.unique()) == sorted(["(none)"] + list(study.models.family.unique()))
    left_out = table[(table.left_out_family == "OPT")].iloc[0]
    assert left_out.n_models == 23 - 5


def test_pair_correlations_match_scipy(study, settings):
    wide = study.wide("macro_f1")
    table = pair_correlations(study, "macro_f1", wide, settings).set_index("reworked")
    assert table.at["goldenswag", "rho"] == pytest.approx(stats.spearmanr(wide.hellaswag, wide.goldenswag).statistic)


def test_delta_rho_estimate_and_paired_bootstrap(study):
    settings = AnalysisSettings(seed=1, n_bootstrap=300)
    wide = study.wide("accuracy")
    table = delta_rho(study, "accuracy", wide, settings)
    assert len(table) == 4 * 8
    row = table[(table.original == "winogrande") & (table.downstream == "trip")].iloc[0]
    expected = stats.spearmanr(wide.winogrande, wide.trip).statistic - stats.spearmanr(wide.winowhat, wide.trip).statistic
    assert row.estimate == pytest.approx(expected)
    # reference: the documented resamples drawn here with numpy (seed 1 and the CRC32 of the key
    # "delta_rho/accuracy/<models...>"), scipy per resample (loop), percentile interval
    complete = wide[["winogrande", "winowhat", "siqa", "piqa", "trip"]].dropna()
    key = "/".join(["delta_rho", "accuracy", *map(str, complete.index)])
    indices = np.random.default_rng([1, zlib.crc32(key.encode("utf-8"))]).integers(0, len(complete), size=(300, len(complete)))
    samples = [stats.spearmanr(complete.winogrande.to_numpy()[i], complete.trip.to_numpy()[i]).statistic
               - stats.spearmanr(complete.winowhat.to_numpy()[i], complete.trip.to_numpy()[i]).statistic for i in indices]
    assert row.ci_low == pytest.approx(np.quantile(samples, 0.025))
    assert row.ci_high == pytest.approx(np.quantile(samples, 0.975))


def test_no_reworked_tasks_is_missing_with_reason(tmp_path, synthetic_frames, settings):
    from benchval.analysis.table import load_study
    scores, tasks = synthetic_frames
    keep = tasks[tasks.role != "cs_reworked"]
    scores = scores[scores.task.isin(keep.task)]
    scores.to_csv(tmp_path / "s.csv", index=False)
    keep.to_csv(tmp_path / "t.csv", index=False)
    study = load_study(tmp_path / "s.csv", tmp_path / "t.csv")
    wide = study.wide("accuracy")
    groups = group_comparisons(study, "accuracy", wide, settings)
    assert groups["estimate"].isna().all() and groups["note"].str.contains("no cs_reworked").all()
    assert delta_rho(study, "accuracy", wide, settings)["note"].iloc[0].startswith("no original/reworked pair")
    assert "no cs_reworked" in pair_correlations(study, "accuracy", wide, settings)["note"].iloc[0]
