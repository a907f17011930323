"""Snakemake script of rules score and score_model_<model>: one model on one task or on all its tasks
(loaded once) -> results/scores/{model}/{task}.parquet."""

from pathlib import Path

from benchval.plumbing.job import start_job
from benchval.scoring.task_scoring import TaskFiles, score_tasks

job = start_job(snakemake, torch=True)
score_tasks(
    [TaskFiles(*files) for files in zip(snakemake.input.tables, snakemake.output.scores, job.params["shard_dirs"])],
    Path(snakemake.input.model).parent,
    job.params["scoring"],
    job.params["entry"],  # params.model, the trigger, is this less the placement keys
    model_name=job.wildcards["model"],
)
