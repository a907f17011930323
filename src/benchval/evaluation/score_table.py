"""The tidy score table (docs/data-contract.md, section 4): the only thing the analysis reads."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd

log = logging.getLogger(__name__)

SCORE_TABLE_COLUMNS = ["model", "family", "size_b", "task", "metric", "value"]
TASK_TABLE_COLUMNS = ["task", "role", "pairs_with", "axes", "label", "unavailable"]


def score_table_from_metrics(metrics: pd.DataFrame, models: dict) -> pd.DataFrame:
    """Join metric rows with each model's family and size; rows without a value are left out
    (tasks.csv says why a task has none)."""
    unknown = sorted(set(metrics["model"]) - set(models))
    if unknown:
        raise KeyError(f"metrics name models missing from config 'models': {unknown}")
    table = metrics.dropna(subset=["value"]).copy()
    table["family"] = table["model"].map(lambda m: models[m]["family"])
    table["size_b"] = table["model"].map(lambda m: float(models[m]["size_b"]))
    return table[SCORE_TABLE_COLUMNS].sort_values(["task", "metric", "model"]).reset_index(drop=True)


def task_table_from_metas(metas: list[dict]) -> pd.DataFrame:
    rows = [
        {
            "task": meta["task"],
            "role": meta["role"],
            "pairs_with": meta.get("pairs_with") or "",
            "axes": ";".join(meta.get("axes") or []),
            "label": meta.get("label") or meta["task"],
            "unavailable": meta.get("unavailable") or "",
        }
        for meta in metas
    ]
    return pd.DataFrame(rows, columns=TASK_TABLE_COLUMNS)


def validate_score_table(table: pd.DataFrame, source: str) -> pd.DataFrame:
    """Check an imported or built table against the contract; errors name the source and column."""
    missing = [column for column in SCORE_TABLE_COLUMNS if column not in table.columns]
    if missing:
        raise ValueError(f"{source}: score table lacks columns {missing}")
    duplicated = table.duplicated(["model", "task", "metric"])
    if duplicated.any():
        first = table.loc[duplicated, ["model", "task", "metric"]].iloc[0].to_dict()
        raise ValueError(f"{source}: {int(duplicated.sum())} duplicate (model, task, metric) rows, e.g. {first}")
    if not pd.api.types.is_numeric_dtype(table["value"]):
        raise ValueError(f"{source}: column 'value' is not numeric")
    return table


# CommonWhy criterion metrics that enter a scored study, each as its own downstream task in the
# accuracy panel (the analysis correlates a benchmark's metric with the same metric downstream):
# metric -> (task-name suffix, label suffix).
COMMONWHY_CRITERIA = {"judge_correct": ("", "judge-correct"), "factscore_all": ("_factscore", "FActScore")}


def commonwhy_criterion_tables(
    rows: pd.DataFrame, tasks: pd.DataFrame, models: list[str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Score-table and task-table rows for CommonWhy as downstream criteria of the given models."""
    selected = rows[rows["metric"].isin(COMMONWHY_CRITERIA) & rows["model"].isin(models)].copy()
    suffix = selected["metric"].map(lambda metric: COMMONWHY_CRITERIA[metric][0])
    selected["task"] = selected["task"] + suffix
    selected["metric"] = "accuracy"
    task_rows = []
    for task in tasks.itertuples():
        for metric, (task_suffix, label_suffix) in COMMONWHY_CRITERIA.items():
            status = getattr(task, f"{metric}_status", "") or ""
            task_rows.append(
                {
                    "task": task.task + task_suffix,
                    "role": "downstream",
                    "pairs_with": "",
                    "axes": task.axes if isinstance(task.axes, str) else "",
                    "label": f"{task.label}, {label_suffix}",
                    # why the measure has no scores (the study page's note), from the criterion rule's status
                    "unavailable": status if status.startswith("not in the study") else "",
                }
            )
    return selected[SCORE_TABLE_COLUMNS].reset_index(drop=True), pd.DataFrame(task_rows, columns=TASK_TABLE_COLUMNS)


def commonwhy_scoreboard_rows(rows_csv: str, tasks_csv: str, models: dict) -> pd.DataFrame:
    """Scoreboard rows for the CommonWhy criteria of a study: per model and criterion task its value when it
    entered the study, and in ``note`` whether the measure entered the study and why not (the criterion rule's
    ``<metric>_status``: the judge's check figures, FActScore's coverage against its bar)."""
    raw_tasks = pd.read_csv(tasks_csv, keep_default_na=False)
    values, tasks = commonwhy_criterion_tables(pd.read_csv(rows_csv), raw_tasks, list(models))
    status = {
        task.task + suffix: str(getattr(task, f"{metric}_status", "") or "status not recorded")
        for task in raw_tasks.itertuples()
        for metric, (suffix, _label) in COMMONWHY_CRITERIA.items()
    }
    value = {(row.model, row.task): row.value for row in values.itertuples()}
    out = []
    for task in tasks.itertuples():
        for model, spec in models.items():
            got = value.get((model, task.task))
            out.append(
                {
                    "model": model,
                    "family": spec["family"],
                    "size_b": float(spec["size_b"]),
                    "task": task.task,
                    "label": task.label,
                    "role": "downstream",
                    "metric": "accuracy",
                    "value": float("nan") if got is None else got,
                    "note": f"CommonWhy criterion: {status[task.task]}"
                    + ("" if got is not None else "; no value for this model"),
                }
            )
    return pd.DataFrame(out)


def write_score_table(
    metrics_paths: list[str],
    meta_paths: list[str],
    models: dict,
    labels: dict[str, str],
    criteria_files: list[str],
    table_csv: str,
    tasks_csv: str,
) -> None:
    """Rule score_table: the tidy score table and the task table of one scored study, from its
    metrics and task metas; ``labels`` (from the config, not the task meta: editing one reruns no
    task or model job) name the tasks; ``criteria_files`` (rows csv, tasks csv), when given, add
    CommonWhy's criteria."""
    metrics = pd.concat([pd.read_csv(path) for path in metrics_paths], ignore_index=True)
    metas = [json.loads(Path(path).read_text()) for path in meta_paths]
    table = score_table_from_metrics(metrics, models)
    tasks = task_table_from_metas(metas)
    tasks["label"] = tasks["task"].map(labels).fillna(tasks["label"])
    if criteria_files:
        rows_csv, criteria_tasks_csv = criteria_files
        criterion_rows, criterion_tasks = commonwhy_criterion_tables(
            pd.read_csv(rows_csv), pd.read_csv(criteria_tasks_csv, keep_default_na=False), list(models)
        )
        table = pd.concat([table, criterion_rows], ignore_index=True)
        tasks = pd.concat([tasks, criterion_tasks], ignore_index=True)
        log.info("added CommonWhy criteria: %s", sorted(criterion_tasks.task))
    validate_score_table(table, "score_table").to_csv(table_csv, index=False)
    tasks.to_csv(tasks_csv, index=False)
    log.info("%d rows; tasks without values: %s", len(table), sorted(set(metrics.task) - set(table.task)))
