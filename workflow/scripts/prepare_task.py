"""Snakemake script: build one task's items table (benchval.tasks.prepare.prepare_task)."""
from benchval.tasks.prepare import configure_logging, prepare_task

configure_logging(snakemake.log[0])
files = {key: path for key, path in snakemake.input.items() if key != "exclude_ids"}
prepare_task(
    snakemake.wildcards.task,
    snakemake.params.task_config,
    files,
    snakemake.params.sample,
    snakemake.params.seed,
    exclude_ids_file=snakemake.input.get("exclude_ids"),
    output=snakemake.output.table,
    checksums=snakemake.params.checksums,
)
