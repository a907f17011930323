"""Snakemake script: the tidy score table and task table of one scored study."""

import json
import logging

import pandas as pd

from benchval.evaluation.score_table import (
    commonwhy_criterion_tables,
    score_table_from_metrics,
    task_table_from_metas,
    validate_score_table,
)
from benchval.plumbing.job import start_job

job = start_job(snakemake)
models, labels, criteria_files = job.params["models"], job.params["labels"], job.params["criteria_files"]
metrics = pd.concat([pd.read_csv(path) for path in snakemake.input.metrics], ignore_index=True)
metas = [json.loads(open(path).read()) for path in snakemake.input.metas]
table = score_table_from_metrics(metrics, models)
tasks = task_table_from_metas(metas)
# Labels come from the config, not the task meta: editing one reruns no task or model job.
tasks["label"] = tasks["task"].map(labels).fillna(tasks["label"])
if criteria_files:
    rows_csv, tasks_csv = criteria_files
    criterion_rows, criterion_tasks = commonwhy_criterion_tables(
        pd.read_csv(rows_csv), pd.read_csv(tasks_csv, keep_default_na=False), list(models)
    )
    table = pd.concat([table, criterion_rows], ignore_index=True)
    tasks = pd.concat([tasks, criterion_tasks], ignore_index=True)
    logging.info("added CommonWhy criteria: %s", sorted(criterion_tasks.task))
validate_score_table(table, "score_table").to_csv(snakemake.output.table, index=False)
tasks.to_csv(snakemake.output.tasks, index=False)
logging.info("%d rows; tasks without values: %s", len(table), sorted(set(metrics.task) - set(table.task)))
