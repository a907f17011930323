"""Snakemake script of rule score: one (model, task) -> results/scores/{model}/{task}.parquet."""

from pathlib import Path

from benchval.joblog import job_log
from benchval.scoring.task_scoring import score_task
from benchval.plumbing.job_threads import job_torch_threads

with job_log(snakemake.log[0], f"scoring {snakemake.wildcards.model} on {snakemake.wildcards.task}"):
    score_task(
        snakemake.input.table,
        Path(snakemake.input.model).parent,
        snakemake.output[0],
        dict(snakemake.params.scoring),
        dict(snakemake.config["models"][snakemake.wildcards.model]),  # params.model less EXECUTION_KEYS: the trigger
        snakemake.params.shard_dir,
        model_name=snakemake.wildcards.model,
        threads=job_torch_threads(snakemake),
    )
