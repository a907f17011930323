"""Snakemake script: an imported study's score_table.csv and tasks.csv (benchval.lmeval.steps.import_score_table)."""

from benchval.lmeval.steps.import_score_table import import_study
from benchval.plumbing.raw_file_checks import verify_raw_files
from benchval.plumbing.job import start_job

job = start_job(snakemake)
verify_raw_files(list(snakemake.input), **job.params["raw_files"])  # against their declared sha256
import_study(
    job.wildcards["study"],
    job.params["study"],
    job.params["mirror"],
    snakemake.output.table,
    snakemake.output.tasks,
)
