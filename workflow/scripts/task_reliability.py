"""Snakemake script: the task reliability table of one study (benchval.analysis.reliability)."""

import logging
from collections import defaultdict

from benchval.analysis.item_level import task_predictions
from benchval.analysis.reliability import reliability_table
from benchval.analysis.study_table import load_study
from benchval.joblog import log_to_file
from benchval.scoring.store import read_scores
from benchval.tasks.items import read_items, read_task_meta

log_to_file(snakemake.log[0])
params, inputs = snakemake.params, snakemake.input
study = load_study(inputs.table, inputs.tasks)
scores = defaultdict(dict)
for (model, task), path in zip(params.pairs, inputs.get("scores", [])):
    scores[task][model] = read_scores(path)
item_results = {}
for items_path, meta_path in zip(inputs.get("task_items", []), inputs.get("metas", [])):
    meta = read_task_meta(meta_path)
    results = task_predictions(read_items(items_path), scores[meta["task"]], meta, params.normalisation)
    if results is not None:
        item_results[meta["task"]] = results
if params.lmeval:  # an lm_eval study read item by item: its samples files give the item-level results
    from benchval.lmeval.importer import item_results as lmeval_item_results

    item_results.update(lmeval_item_results(snakemake.wildcards.study, params.lmeval["study"], params.lmeval["mirror"]))
metrics = [m for m in study.metrics if not params.settings["metrics"] or m in params.settings["metrics"]]
table = reliability_table(study, metrics, item_results, dict(params.item_counts), params.settings)
table.to_csv(snakemake.output.table, index=False)
undeclared = sorted(set(table.loc[table["variance_source"] == "none", "task"]))
logging.info(
    "%s: %d rows; item-level tasks %d, declared item counts %d; no sampling variance for %s",
    snakemake.wildcards.study,
    len(table),
    len(item_results),
    len(params.item_counts),
    undeclared or "none",
)
