"""Snakemake script: model manifests -> models table (CSV) and its HTML page for the report."""

from benchval.jobs.layout import model_manifest
from benchval.plumbing.job import start_job
from benchval.report.pages import write_models_pages

job = start_job(snakemake)
write_models_pages(
    snakemake.input.manifests, snakemake.output.page, snakemake.output.table, f"From {model_manifest('<model>')}."
)
