"""Snakemake script: the findings page of the run (results/findings.md, .html and the report's copy)."""

from benchval.plumbing.job import start_job
from benchval.report.findings import write_findings_job

job = start_job(snakemake)
write_findings_job(dict(snakemake.input.items()), job.params, dict(snakemake.output.items()))
