"""Snakemake script: the tidy score table and task table of one scored study."""
import json
import logging

import pandas as pd

from benchval.score_table import score_table_from_metrics, task_table_from_metas, validate_score_table

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
metrics = pd.concat([pd.read_csv(path) for path in snakemake.input.metrics], ignore_index=True)
metas = [json.loads(open(path).read()) for path in snakemake.input.metas]
table = validate_score_table(score_table_from_metrics(metrics, snakemake.params.models), "score_table")
table.to_csv(snakemake.output.table, index=False)
task_table_from_metas(metas).to_csv(snakemake.output.tasks, index=False)
logging.info("%d rows; tasks without values: %s", len(table), sorted(set(metrics.task) - set(table.task)))
