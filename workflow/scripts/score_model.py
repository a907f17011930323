"""Snakemake script of rules score_model_<model>: one model, all its tasks, loaded once."""

from pathlib import Path

from benchval.joblog import job_log
from benchval.scoring.task_scoring import TaskFiles, score_tasks
from benchval.plumbing.job_threads import job_torch_threads

tasks = [TaskFiles(*files) for files in zip(snakemake.input.tables, snakemake.output, snakemake.params.shard_dirs)]
with job_log(snakemake.log[0], f"scoring {snakemake.params.model_name}"):
    score_tasks(
        tasks,
        Path(snakemake.input.model).parent,
        dict(snakemake.params.scoring),
        dict(snakemake.config["models"][snakemake.params.model_name]),  # params.model less EXECUTION_KEYS: the trigger
        model_name=snakemake.params.model_name,
        threads=job_torch_threads(snakemake),
    )
