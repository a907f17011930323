"""Snakemake script: metrics and lm-eval-style outputs of one model on one or more tasks."""

import json
import logging
from pathlib import Path

import pandas as pd

from benchval.evaluation.evaluate import (
    evaluate_task,
    lmeval_results,
    lmeval_samples,
    write_outputs,
)
from benchval.plumbing.job import start_job

job = start_job(snakemake)
manifest = json.loads(open(snakemake.input.model).read())
model, normalisation = job.params["model"], job.params["normalisation"]
jobs = zip(
    snakemake.input.task_items,
    snakemake.input.metas,
    snakemake.input.scores,
    snakemake.input.calibrated,
    snakemake.output.metrics,
    snakemake.output.lmeval_results,
)
for items_path, meta_path, scores_path, calibrated_path, metrics_csv, results_json in jobs:
    items = pd.read_parquet(items_path)
    scores = pd.read_parquet(scores_path)
    meta = json.loads(open(meta_path).read())
    rows, predictions = evaluate_task(items, pd.read_parquet(calibrated_path), meta, model, normalisation)
    samples = lmeval_samples(items, scores, predictions) if not meta.get("unavailable") else []
    results = lmeval_results(rows, meta, model, manifest, predictions, job.params["lmeval_stderr"])
    write_outputs(metrics_csv, Path(results_json).parent, rows, results, samples)
    logging.info("%s on %s:\n%s", model, meta["task"], rows.to_string(index=False))
