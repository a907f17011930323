"""Snakemake script: the FDR step of one study: adjust every tested table's p-values together
(benchval.analysis.fdr)."""

from benchval.analysis.fdr import run_fdr_step_with_ceilings
from benchval.plumbing.job import start_job

job = start_job(snakemake)
unadjusted = {name: path for name, path in snakemake.input.items() if name != "reliability"}
run_fdr_step_with_ceilings(
    unadjusted, snakemake.input.reliability, job.params["ceiling_bar"], job.params["analysis"], job.params["out_dir"]
)
