"""Snakemake script of rules evaluate and evaluate_model_<model>: metrics and lm-eval-style outputs of
one model on one or more tasks."""

from benchval.evaluation.evaluate import evaluate_files
from benchval.plumbing.job import start_job

job = start_job(snakemake)
i, o = snakemake.input, snakemake.output
evaluate_files(
    job.params["model"],
    i.model,
    list(zip(i.task_items, i.metas, i.scores, i.calibrated, o.metrics, o.lmeval_results)),
    job.params["normalisation"],
    job.params["lmeval_stderr"],
)
