import zlib

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchval.analysis.revisions import delta_rho, group_comparisons, group_statistics, pair_correlations
from benchval.analysis.settings import settings_from_config


def test_group_statistics_hand_case():
    # tasks: O1 O2 R1 R2
    corr = np.array([[1.0, 0.5, 0.2, 0.3], [0.5, 1.0, 0.4, 0.1], [0.2, 0.4, 1.0, 0.6], [0.3, 0.1, 0.6, 1.0]])
    out = group_statistics(corr, 2, 0.9999)
    assert out["mean_z_OO"] == pytest.approx(np.arctanh(0.5))
    assert out["mean_z_RR"] == pytest.approx(np.arctanh(0.6))
    assert out["mean_z_OR"] == pytest.approx(np.mean(np.arctanh([0.2, 0.3, 0.4, 0.1])))
    assert out["diff_OO_minus_RR"] == pytest.approx(np.arctanh(0.5) - np.arctanh(0.6))


def test_group_point_estimate_uses_scipy_correlations(study, settings):
    wide = study.wide("accuracy")
    table = group_comparisons(study, "accuracy", wide, settings)
    overall = table[table.left_out_family == "(none)"].set_index("statistic")
    originals, reworked = (
        ["winogrande", "hellaswag", "siqa", "piqa"],
        ["winowhat", "goldenswag", "siqa_filtered", "piqa_rup"],
    )
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
    settings = settings_from_config({"seed": 1, "n_bootstrap": 300})
    wide = study.wide("accuracy")
    table = delta_rho(study, "accuracy", wide, settings)
    assert len(table) == 4 * 8
    row = table[(table.original == "winogrande") & (table.downstream == "trip")].iloc[0]
    expected = (
        stats.spearmanr(wide.winogrande, wide.trip).statistic - stats.spearmanr(wide.winowhat, wide.trip).statistic
    )
    assert row.estimate == pytest.approx(expected)
    # reference: the documented resamples drawn here with numpy (seed 1 and the CRC32 of the key
    # "delta_rho/accuracy/<models...>"), scipy per resample (loop), percentile interval
    complete = wide[["winogrande", "winowhat", "siqa", "piqa", "trip"]].dropna()
    key = "/".join(["delta_rho", "accuracy", *map(str, complete.index)])
    indices = np.random.default_rng([1, zlib.crc32(key.encode("utf-8"))]).integers(
        0, len(complete), size=(300, len(complete))
    )
    samples = [
        stats.spearmanr(complete.winogrande.to_numpy()[i], complete.trip.to_numpy()[i]).statistic
        - stats.spearmanr(complete.winowhat.to_numpy()[i], complete.trip.to_numpy()[i]).statistic
        for i in indices
    ]
    assert row.ci_low == pytest.approx(np.quantile(samples, 0.025))
    assert row.ci_high == pytest.approx(np.quantile(samples, 0.975))


def test_no_reworked_tasks_is_missing_with_reason(tmp_path, synthetic_frames, settings):
    from benchval.analysis.study_table import load_study

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


# ------------------------------------------------------------------ sensitivity variants (cs_variant)

VARIANTS = ["goal_Leet", "goal_typos", "goal_It_cleft"]


def _variant_study(tmp_path, variants=VARIANTS, replace_base=False):
    """The synthetic paper study plus PIQA-RUP variants (or, with replace_base, one variant as the
    cs_reworked piqa_rup itself: the reference for the substitution)."""
    from benchval.testing.synthetic_study import PAPER_TASKS, write_synthetic_study
    from benchval.analysis.study_table import load_study

    extra = [(f"piqa_rup__{v}", "cs_variant", "piqa", "event", f"PIQA-RUP [{v}]") for v in variants]
    paths = write_synthetic_study(tmp_path / "variants", seed=3, tasks=PAPER_TASKS + extra)
    study = load_study(*paths)
    if not replace_base:
        return study
    (variant,) = variants
    scores = study.scores[study.scores.task != "piqa_rup"].replace({"task": {f"piqa_rup__{variant}": "piqa_rup"}})
    tasks = study.tasks.drop(index=f"piqa_rup__{variant}")
    return type(study)(scores=scores, tasks=tasks, models=study.models)


def test_variant_sensitivity_one_row_per_variant_against_references(tmp_path):
    from benchval.analysis.revisions import variant_sensitivity

    settings = settings_from_config({"seed": 5, "n_bootstrap": 100})
    study = _variant_study(tmp_path)
    wide = study.wide("accuracy")
    table = variant_sensitivity(study, "accuracy", wide, settings).set_index("variant_value")
    assert list(table.index) == VARIANTS and (table.reworked == "piqa_rup").all() and (table.original == "piqa").all()
    downstream = study.tasks_with_role("downstream")
    row = table.loc["goal_Leet"]
    variant = wide["piqa_rup__goal_Leet"]
    assert row.rho_pair == pytest.approx(stats.spearmanr(wide.piqa, variant).statistic)
    assert row.n_models_pair == 23 and row.n_downstream == len(downstream) == 8 and row.note == ""
    # OO/RR/OR: exactly group_comparisons with the variant as the study's piqa_rup
    reference_study = _variant_study(tmp_path / "ref", ["goal_Leet"], replace_base=True)
    reference = group_comparisons(reference_study, "accuracy", reference_study.wide("accuracy"), settings)
    overall = reference[reference.left_out_family == "(none)"].set_index("statistic")
    assert row.diff_OO_minus_RR == pytest.approx(overall.at["diff_OO_minus_RR", "estimate"])
    assert row.diff_OO_minus_OR == pytest.approx(overall.at["diff_OO_minus_OR", "estimate"])
    assert row.diff_OO_minus_RR_ci_low <= row.diff_OO_minus_RR <= row.diff_OO_minus_RR_ci_high
    # mean delta rho: scipy per downstream task, and a loop over the same resamples for the interval
    deltas = [
        stats.spearmanr(wide.piqa, wide[t]).statistic - stats.spearmanr(variant, wide[t]).statistic for t in downstream
    ]
    assert row.mean_delta_rho == pytest.approx(np.mean(deltas))
    matrix = wide[["piqa", "piqa_rup__goal_Leet"] + downstream].to_numpy()
    key = "revision_sensitivity_delta_rho/accuracy/piqa_rup__goal_Leet"  # the documented seeding, by hand
    indices = np.random.default_rng([5, zlib.crc32(key.encode("utf-8"))]).integers(0, 23, size=(100, 23))
    samples = [
        np.mean(
            [
                stats.spearmanr(matrix[i, 0], matrix[i, 2 + k]).statistic
                - stats.spearmanr(matrix[i, 1], matrix[i, 2 + k]).statistic
                for k in range(len(downstream))
            ]
        )
        for i in indices
    ]
    assert row.mean_delta_rho_ci_low == pytest.approx(np.quantile(samples, 0.025))
    assert row.mean_delta_rho_ci_high == pytest.approx(np.quantile(samples, 0.975))
    # same seed, same table
    again = variant_sensitivity(study, "accuracy", wide, settings).set_index("variant_value")
    pd.testing.assert_frame_equal(again, table)


def test_variants_leave_the_main_revision_analysis_unchanged(tmp_path, study, settings):
    with_variants = _variant_study(tmp_path)
    for function in (group_comparisons, pair_correlations, delta_rho):
        ours = function(with_variants, "accuracy", with_variants.wide("accuracy"), settings)
        pd.testing.assert_frame_equal(ours, function(study, "accuracy", study.wide("accuracy"), settings))


def test_variant_sensitivity_missing_with_reasons(study, settings, tmp_path):
    from benchval.analysis.revisions import variant_sensitivity

    table = variant_sensitivity(study, "accuracy", study.wide("accuracy"), settings)
    assert len(table) == 1 and "no cs_variant tasks" in table.note.iloc[0]
    few = _variant_study(tmp_path, ["goal_HP"])
    wide = few.wide("accuracy").iloc[:4]
    row = variant_sensitivity(few, "accuracy", wide, settings).iloc[0]
    assert np.isnan(row.rho_pair) and np.isnan(row.diff_OO_minus_RR) and np.isnan(row.mean_delta_rho)
    assert "rho_pair: only 4 model(s)" in row.note and "(< min_models=5)" in row.note


def test_task_table_checks_variant_rows(tmp_path):
    from benchval.analysis.study_table import TableError, read_tasks

    path = tmp_path / "tasks.csv"
    path.write_text(
        "task,role,pairs_with,axes,label\npiqa,cs_original,,event,P\npiqa_rup__goal_HP,cs_variant,piqa,event,V\n"
    )
    assert read_tasks(path).at["piqa_rup__goal_HP", "role"] == "cs_variant"
    path.write_text("task,role,pairs_with,axes,label\npiqa,cs_original,,event,P\nrup_hp,cs_variant,piqa,event,V\n")
    with pytest.raises(TableError, match=r"line 3 \(task 'rup_hp'\): 'rup_hp' is not a variant name"):
        read_tasks(path)
    path.write_text(
        "task,role,pairs_with,axes,label\npiqa,cs_original,,event,P\npiqa_rup__goal_HP,cs_variant,,event,V\n"
    )
    with pytest.raises(TableError, match="a cs_variant task needs 'pairs_with'"):
        read_tasks(path)
