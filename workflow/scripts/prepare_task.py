"""Snakemake script: build one task's items table (benchval.tasks.prepare.prepare_task)."""

from benchval.plumbing.job import start_job
from benchval.tasks.prepare import prepare_task

job = start_job(snakemake, warnings_to_console=True)  # e.g. the SKIP of an unavailable task
prepare_task(
    job.wildcards["task"],
    job.params["task_config"],
    dict(snakemake.input.items()),
    job.params["sample"],
    job.params["seed"],
    exclusion=job.params["exclusion"],
    output=snakemake.output.table,
    checksums=job.params["checksums"],
)
