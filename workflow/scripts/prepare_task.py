"""Snakemake script: build one task's items table (benchval.tasks.prepare.prepare_task)."""

from benchval.plumbing.job import start_job
from benchval.tasks.prepare import prepare_task

# the model jobs wait for the tasks: normal OS priority; warnings (e.g. the SKIP of an unavailable task) to the console
job = start_job(snakemake, light=False, warnings_to_console=True)
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
