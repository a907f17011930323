"""Snakemake script: one study's findings page (results/studies/<study>/findings.md and .html)."""

from benchval.plumbing.job import start_job
from benchval.report.findings import write_study_findings_job

job = start_job(snakemake)
write_study_findings_job(dict(snakemake.input.items()), job.params, dict(snakemake.output.items()))
