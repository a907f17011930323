"""Specification robustness (benchval.analysis.specification): shares known by construction, the main
specification equal to the chain's tables, and the recomputation from stored option scores."""

import numpy as np
import pandas as pd
import pytest

from benchval.analysis.item_level import task_predictions
from benchval.testing.analysis_in_one_process import run_analysis
from benchval.analysis.specification import (
    DIMENSIONS,
    Grid,
    complete_case,
    grid_from_config,
    interval,
    order_label,
    robustness_table,
    significance_label,
    summarise,
)
from benchval.analysis.study_table import StudyTable

SINGLE = {"covariates": ["paper"], "fdr_family": ["configured"], "models": ["pairwise"], "ci_method": ["percentile"]}
EMPTY_STANDING = pd.DataFrame(
    columns=["model", "task", "metric", "value", "ci_low", "ci_high", "chance", "chance_error_bound"]
)


def _spec(**changes):
    base = dict.fromkeys(DIMENSIONS, "n/a")
    return {**base, **changes}


def test_share_and_flipping_choice_on_a_synthetic_record_set():
    grid = Grid(
        {
            "normalisation": ("n/a",),
            "calibration": ("n/a",),
            "scoring": ("n/a",),
            "covariates": ("paper", "ranked"),
            "fdr_family": ("configured", "unadjusted"),
            "models": ("pairwise",),
            "ci_method": ("n/a",),
        }
    )
    labels = {
        ("paper", "configured"): "positive, significant",
        ("paper", "unadjusted"): "positive, significant",
        ("ranked", "configured"): "positive, not significant",
        ("ranked", "unadjusted"): "positive, significant",
    }
    records = [
        {
            "metric": "accuracy",
            "kind": "partial_spearman",
            "subject": "x ~ y",
            "estimate": 0.5,
            "label": label,
            "spec": _spec(covariates=c, fdr_family=f, models="pairwise"),
        }
        for (c, f), label in labels.items()
    ]
    row = summarise(records, grid).iloc[0]
    assert row["main"] == "positive, significant" and row["n_specifications"] == 4 and row["n_agree"] == 3
    assert row["share_agree"] == 0.75 and row["flipped_by"] == "covariates"
    assert row["dimensions"] == "covariates, fdr_family"


def test_two_main_specifications_are_an_error():
    grid = Grid({d: ("a",) for d in DIMENSIONS})
    record = {"metric": "m", "kind": "k", "subject": "s", "estimate": 1.0, "label": "x", "spec": _spec()}
    with pytest.raises(RuntimeError, match="2 main specifications"):
        summarise([record, dict(record)], grid)


def test_a_conclusion_that_flips_under_one_normalisation_has_share_one_half(study, settings):
    """The rescoring of 'per_char' reverses one downstream task's scores: every conclusion on that task
    flips its sign under exactly one of the two specifications, the others agree under both."""
    flipped = "trip"

    def rescore(normalisation, calibrate):
        if normalisation == "per_token":
            return study, EMPTY_STANDING
        scores = study.scores.copy()
        rows = scores["task"] == flipped
        scores.loc[rows, "value"] = 1 - scores.loc[rows, "value"]
        return StudyTable(scores=scores, tasks=study.tasks, models=study.models), EMPTY_STANDING

    grid = grid_from_config({"normalisation": ["per_token", "per_char"], "calibration": [True], **SINGLE}, "per_token")
    table = robustness_table(study, ["accuracy"], settings, grid, rescore)
    spearman = table[table["kind"] == "cs_downstream_spearman"].set_index("subject")
    on_flipped = spearman.index.str.endswith(f"~ {flipped}")
    assert on_flipped.sum() == 8
    assert (spearman.loc[on_flipped, "share_agree"] == 0.5).all()
    assert (spearman.loc[on_flipped, "flipped_by"] == "normalisation").all()
    assert (spearman.loc[~on_flipped, "share_agree"] == 1.0).all()
    assert spearman.loc[on_flipped, "estimate_min"].lt(0).all() and spearman.loc[on_flipped, "estimate_max"].gt(0).all()


def test_main_specification_equals_the_chain(study_files, study, settings, tmp_path):
    run_analysis(*study_files, {"seed": 7, "n_bootstrap": 400}, tmp_path / "chain", make_figures=False)
    grid = grid_from_config(SINGLE, None)
    table = robustness_table(study, study.metrics, settings, grid).set_index(["metric", "kind", "subject"])
    assert (table["n_specifications"].dropna() <= 1).all()
    for name, kind, column in (
        ("correlations_cs_downstream", "cs_downstream_spearman", "rho"),
        ("partial_spearman", "partial_spearman", "rho_partial"),
    ):
        chain = pd.read_csv(tmp_path / "chain" / "tables" / f"{name}.csv")
        if "role" in chain:
            chain = chain[chain["role"] != "control"]
        for row in chain.itertuples():
            expected = significance_label(getattr(row, column), row.reject)
            got = table.loc[(row.metric, kind, f"{row.benchmark} ~ {row.downstream}"), "main"]
            assert got == expected, (name, row.benchmark, row.downstream)
    lofo = pd.read_csv(tmp_path / "chain" / "tables" / "lofo_scores.csv").dropna(subset=["delta_r2_ci_low"])
    for row in lofo.itertuples():
        excludes = row.delta_r2_ci_low > 0 or row.delta_r2_ci_high < 0
        got = table.loc[(row.metric, "lofo_gain", f"{row.downstream}: {row.predictor_set}"), "main"]
        assert got.endswith("excludes 0") == excludes


def test_too_few_models_is_one_row_per_kind_with_the_reason(study, settings):
    few = study.models.index[:3]
    small = StudyTable(
        scores=study.scores[study.scores["model"].isin(few)], tasks=study.tasks, models=study.models.loc[few]
    )
    table = robustness_table(small, ["accuracy"], settings, grid_from_config(SINGLE, None))
    assert len(table) == 5 and table["note"].str.contains("3 models with").all()


def test_basic_interval_by_hand():
    assert interval(0.1, -0.05, 0.4, "basic") == pytest.approx((-0.2, 0.25))
    assert interval(0.1, -0.05, 0.4, "percentile") == (-0.05, 0.4)


def test_order_label_marks_ties():
    part = pd.DataFrame({"model": ["b", "a", "c"], "value": [0.5, 0.5, 0.7]})
    assert order_label(part) == "c > a = b"


def test_complete_case_keeps_models_with_every_score(study):
    scores = study.scores.copy()
    dropped = study.models.index[0]
    scores = scores[~((scores["model"] == dropped) & (scores["task"] == "trip"))]
    kept = complete_case(StudyTable(scores=scores, tasks=study.tasks, models=study.models))
    assert dropped not in kept.models.index and len(kept.models) == len(study.models) - 1


def test_stored_scores_give_the_variant_predictions():
    items = pd.DataFrame({"id": ["a", "b"], "options": [[" x", " yyyy"], [" x", " yyyy"]], "label": [1, 0]})
    rows = []
    for item in ("a", "b"):
        for k, (text, logprob, tokens, chars) in enumerate(((" x", -2.0, 1, 2), (" yyyy", -3.0, 3, 5))):
            rows.append(
                {
                    "item_id": item,
                    "option_index": k,
                    "kind": "option",
                    "continuation": text,
                    "logprob_sum": logprob,
                    "n_tokens": tokens,
                    "n_chars": chars,
                    "n_bytes": chars,
                }
            )
    rows += [
        {
            "item_id": "a",
            "option_index": 0,
            "kind": "prior",
            "continuation": " x",
            "logprob_sum": -0.1,
            "n_tokens": 1,
            "n_chars": 2,
            "n_bytes": 2,
        },
        {
            "item_id": "a",
            "option_index": 1,
            "kind": "prior",
            "continuation": " yyyy",
            "logprob_sum": -9.0,
            "n_tokens": 3,
            "n_chars": 5,
            "n_bytes": 5,
        },
    ]
    scores = {"m": pd.DataFrame(rows)}
    meta = {"scoring_mode": "calibrated"}
    # per token: x -2 vs y -1 (y); per char: x -1 vs y -0.6 (y); sum: x -2 vs y -3 (x)
    assert task_predictions(items, scores, meta, "sum", calibrate=False).predictions["m"].tolist() == [0, 0]
    assert task_predictions(items, scores, meta, "per_token", calibrate=False).predictions["m"].tolist() == [1, 1]
    # calibrated per token: x -2 - (-0.1) = -1.9, y -1 - (-3) = 2: y
    assert task_predictions(items, scores, meta, "sum", calibrate=True).predictions["m"].tolist() == [1, 1]
    assert np.array_equal(task_predictions(items, scores, meta, "sum").labels, [1, 0])


def test_aligned_scoring_puts_the_variant_in_place_of_its_task(study, settings):
    """Under scoring: aligned, 'hellaswag' is replaced by a variant whose scores are reversed: every
    conclusion on hellaswag agrees in exactly one of the two scoring specifications."""
    scores = study.scores[study.scores["task"] == "hellaswag"].assign(task="hellaswag__reversed")
    scores["value"] = 1 - scores["value"]
    tasks = pd.concat(
        [
            study.tasks,
            pd.DataFrame(
                {
                    "role": ["cs_variant"],
                    "pairs_with": ["hellaswag"],
                    "axes": [()],
                    "label": ["reversed"],
                    "unavailable": [""],
                },
                index=["hellaswag__reversed"],
            ),
        ]
    )
    extended = StudyTable(pd.concat([study.scores, scores], ignore_index=True), tasks, study.models)
    section = {**SINGLE, "scoring": ["as_declared", "aligned"], "aligned_scoring": {"hellaswag": "hellaswag__reversed"}}
    grid = grid_from_config(section, None, extended.tasks.index)
    assert grid.values["scoring"] == ("as_declared", "aligned")
    table = robustness_table(extended, ["accuracy"], settings, grid)
    spearman = table[table["kind"] == "cs_downstream_spearman"].set_index("subject")
    on_task = spearman.index.str.startswith("hellaswag ~")
    assert on_task.sum() == 8 and (spearman.loc[on_task, "share_agree"] == 0.5).all()
    assert (spearman.loc[on_task, "flipped_by"] == "scoring").all() and (
        spearman.loc[~on_task, "share_agree"] == 1
    ).all()
    assert not table["subject"].str.contains("hellaswag__reversed").any()  # a cs_variant enters no statistic
    # a study without both tasks has no scoring dimension
    assert grid_from_config(section, None, study.tasks.index).values["scoring"] == ("n/a",)
