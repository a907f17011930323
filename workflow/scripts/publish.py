"""Snakemake script: copy each study's figures and tables into results/figures|tables/{study}/,
and list what was published (benchval.plumbing.published_folders: a deleted published file is rebuilt)."""

from benchval.plumbing.job import start_job
from benchval.plumbing.published_folders import publish

job = start_job(snakemake)
publish(
    snakemake.input.figures,
    snakemake.input.tables,
    snakemake.input.task_sizes,
    snakemake.output.figures,
    snakemake.output.tables,
    snakemake.output.manifest,
)
