"""The score table joins metrics with the model registry and keeps to the contract."""

import pandas as pd
import pytest

from benchval.evaluation.evaluate import evaluate_task
from benchval.evaluation.score_table import score_table_from_metrics, task_table_from_metas, validate_score_table

MODELS = {"m1": {"family": "f", "size_b": 0.5}, "m2": {"family": "g", "size_b": 1}}


def test_unavailable_task_gives_missing_values_with_reason_and_no_table_rows():
    meta = {"task": "goldenswag", "metrics": ["accuracy"], "scoring_mode": "mc", "unavailable": "needs the Hub"}
    rows, predictions = evaluate_task(pd.DataFrame(), pd.DataFrame(), meta, "m1", "per_token")
    assert rows["value"].isna().all() and "needs the Hub" in rows["note"].iloc[0]
    table = score_table_from_metrics(rows, MODELS)
    assert table.empty and predictions.empty
    tasks = task_table_from_metas([dict(meta, role="cs_reworked", pairs_with="hellaswag", axes=["event"])])
    assert tasks.loc[0, "unavailable"] == "needs the Hub" and tasks.loc[0, "pairs_with"] == "hellaswag"


def test_score_table_adds_family_and_size():
    metrics = pd.DataFrame(
        {"model": ["m1", "m2"], "task": ["t", "t"], "metric": ["accuracy"] * 2, "value": [0.5, 0.75]}
    )
    table = score_table_from_metrics(metrics, MODELS)
    assert table[["model", "family", "size_b", "value"]].values.tolist() == [
        ["m1", "f", 0.5, 0.5],
        ["m2", "g", 1.0, 0.75],
    ]


def test_unknown_model_and_duplicates_are_named():
    metrics = pd.DataFrame({"model": ["zz"], "task": ["t"], "metric": ["accuracy"], "value": [0.5]})
    with pytest.raises(KeyError, match="zz"):
        score_table_from_metrics(metrics, MODELS)
    doubled = pd.DataFrame(
        {
            "model": ["m1"] * 2,
            "family": ["f"] * 2,
            "size_b": [1.0] * 2,
            "task": ["t"] * 2,
            "metric": ["a"] * 2,
            "value": [1, 2],
        }
    )
    with pytest.raises(ValueError, match="imported.csv: 1 duplicate"):
        validate_score_table(doubled, "imported.csv")


def test_commonwhy_criteria_enter_the_accuracy_panel_as_their_own_tasks():
    from benchval.evaluation.score_table import commonwhy_criterion_tables

    rows = pd.DataFrame(
        {
            "model": ["m1", "m1", "m1", "other"],
            "family": ["f"] * 4,
            "size_b": [0.5] * 4,
            "task": ["commonwhy_head"] * 4,
            "metric": ["judge_correct", "factscore_all", "rougeL", "judge_correct"],
            "value": [0.5, 0.25, 0.3, 0.9],
        }
    )
    tasks = pd.DataFrame({"task": ["commonwhy_head"], "axes": ["event;social"], "label": ["CommonWhy (head)"]})
    table, task_table = commonwhy_criterion_tables(rows, tasks, ["m1"])
    assert table[["task", "metric", "value"]].values.tolist() == [
        ["commonwhy_head", "accuracy", 0.5],
        ["commonwhy_head_factscore", "accuracy", 0.25],
    ]
    assert task_table["task"].tolist() == ["commonwhy_head", "commonwhy_head_factscore"]
    assert set(task_table["role"]) == {"downstream"} and set(task_table["axes"]) == {"event;social"}
