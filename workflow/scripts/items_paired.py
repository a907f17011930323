"""Snakemake script: paired comparisons and rank resolution of one item source (benchval.items.steps.items_paired)."""

from benchval.items.steps.items_paired import run_items_paired
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_items_paired(
    job.wildcards["source"],
    job.params["comparison"],
    job.params["settings"],
    job.params["seed"],
    snakemake.input.responses,
    snakemake.output.paired,
    snakemake.output.ranks,
)
