"""The task_reliability rule's job (workflow/rules/robustness.smk): each task's reliability from its
item-level results (a scored study's stored scores, an lm_eval study's samples files) or, failing those,
the item count its entry declares (benchval.analysis.reliability)."""

from __future__ import annotations

import logging
from collections import defaultdict

import pandas as pd

from benchval.analysis.item_level import task_predictions
from benchval.analysis.reliability import reliability_table
from benchval.analysis.study_table import load_study
from benchval.scoring.store import read_scores
from benchval.tasks.items import read_items, read_task_meta

log = logging.getLogger(__name__)


def _stored_item_results(inputs: dict, pairs: list, normalisation: str | None) -> dict:
    """task -> item-level results from a scored study's stored scores (none for an imported study)."""
    scores = defaultdict(dict)
    for (model, task), path in zip(pairs, inputs.get("scores", [])):
        scores[task][model] = read_scores(path)
    item_results = {}
    for items_path, meta_path in zip(inputs.get("task_items", []), inputs.get("metas", [])):
        meta = read_task_meta(meta_path)
        results = task_predictions(read_items(items_path), scores[meta["task"]], meta, normalisation)
        if results is not None:
            item_results[meta["task"]] = results
    return item_results


def run_reliability_step(study_name: str, inputs: dict, params: dict, table_csv: str) -> pd.DataFrame:
    """``inputs``: table, tasks (and task_items, metas, scores for a scored study); ``params``: pairs,
    item_counts, normalisation, lmeval (an lm_eval samples study, or None), settings."""
    study = load_study(inputs["table"], inputs["tasks"])
    item_results = _stored_item_results(inputs, params["pairs"], params["normalisation"])
    if params["lmeval"]:  # an lm_eval study read item by item: its samples files give the item-level results
        from benchval.lmeval.importer import item_results as lmeval_item_results

        lmeval = params["lmeval"]
        item_results.update(lmeval_item_results(study_name, lmeval["study"], lmeval["mirror"]))
    settings = params["settings"]
    metrics = [m for m in study.metrics if not settings["metrics"] or m in settings["metrics"]]
    table = reliability_table(study, metrics, item_results, dict(params["item_counts"]), settings)
    table.to_csv(table_csv, index=False)
    undeclared = sorted(set(table.loc[table["variance_source"] == "none", "task"]))
    log.info(
        "%s: %d rows; item-level tasks %d, declared item counts %d; no sampling variance for %s",
        study_name,
        len(table),
        len(item_results),
        len(params["item_counts"]),
        undeclared or "none",
    )
    return table
