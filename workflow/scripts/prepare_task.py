"""Snakemake script: build one task's items table (benchval.tasks.prepare.prepare_task)."""

from benchval.tasks.prepare import configure_logging, prepare_task

configure_logging(snakemake.log[0])
files = dict(snakemake.input.items())
prepare_task(
    snakemake.wildcards.task,
    snakemake.params.task_config,
    files,
    snakemake.params.sample,
    snakemake.params.seed,
    exclusion=snakemake.params.exclusion,
    output=snakemake.output.table,
    checksums=snakemake.params.checksums,
)
