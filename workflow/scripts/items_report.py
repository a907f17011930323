"""Snakemake script: the item studies' report page (benchval.items.report)."""

from benchval.items.report import write_report
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_report(
    job.params["studies"], job.params["headlines"], snakemake.input.recovery, job.params["fits"], snakemake.output[0]
)
