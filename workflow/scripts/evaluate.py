"""Snakemake script: metrics and lm-eval-style outputs for one (model, task)."""
import json
import logging

import pandas as pd

from benchval.evaluate import evaluate_task, lmeval_results, lmeval_samples, write_outputs

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO, format="%(asctime)s %(message)s")
items = pd.read_parquet(snakemake.input.task_items)
scores = pd.read_parquet(snakemake.input.scores)
meta = json.loads(open(snakemake.input.meta).read())
manifest = json.loads(open(snakemake.input.model).read())
model = snakemake.wildcards.model

rows, predictions = evaluate_task(items, scores, meta, model, snakemake.params.normalisation)
samples = lmeval_samples(items, scores, predictions) if not meta.get("unavailable") else []
write_outputs(
    snakemake.output.metrics,
    snakemake.output.lmeval_results.rsplit("/", 1)[0],
    rows,
    lmeval_results(rows, meta, model, manifest, predictions, snakemake.params.lmeval_stderr),
    samples,
)
logging.info("%s on %s:\n%s", model, meta["task"], rows.to_string(index=False))
