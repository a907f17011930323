"""Snakemake script: every scored task's final n beside the paper's n, with filter counts and the
reason for any n far from the paper's (config/catalogue/paper_n_deviations.yaml)."""

from benchval.plumbing.job import start_job
from benchval.tasks.sizes import task_sizes_table

job = start_job(snakemake)
task_sizes_table(snakemake.input.metas, job.params["tasks"], job.params["deviations"]).to_csv(
    snakemake.output[0], index=False
)
