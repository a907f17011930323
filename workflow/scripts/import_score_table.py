"""Snakemake script: an imported study's score_table.csv and tasks.csv (benchval.analysis.importers)."""

from benchval.analysis.importers import import_study
from benchval.plumbing.raw_file_checks import verify_job_inputs
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
verify_job_inputs(snakemake)  # the raw files against their declared sha256
import_study(
    snakemake.wildcards.study,
    snakemake.params.study,
    snakemake.params.mirror,
    snakemake.output.table,
    snakemake.output.tasks,
)
