"""Snakemake script: the atlas report page (benchval.atlas.steps.report)."""

from benchval.atlas.steps.report import write_report
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_report(job.params["atlas"], dict(snakemake.input.items()), snakemake.output.page, snakemake.output.html)
