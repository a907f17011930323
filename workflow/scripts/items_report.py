"""Snakemake script: the item studies' report page (benchval.items.report) and the open_llm re-evaluation
noise table it shows (benchval.items.reevaluation)."""

from benchval.items.reevaluation import write_reevaluation_snr
from benchval.items.report import write_report
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_reevaluation_snr(
    snakemake.input.cells,
    snakemake.input.duplicates,
    job.params["settings"],
    job.params["seed"],
    snakemake.output.reevaluation,
)
write_report(
    job.params["studies"],
    job.params["headlines"],
    snakemake.input.recovery,
    job.params["fits"],
    snakemake.output.report,
    snakemake.output.reevaluation,
)
