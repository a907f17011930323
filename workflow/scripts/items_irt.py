"""Snakemake script: 1PL and 2PL of one task of a source (benchval.items.study.run_irt_step)."""

from benchval.items.study import run_irt_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
outputs = {name: snakemake.output[name] for name in ("item_params", "fit", "abilities")}
run_irt_step(
    snakemake.input.responses, job.wildcards["task"], job.params["settings"], snakemake.input.recovery, outputs
)
