"""Snakemake script: every scored task's final n beside the paper's n, with filter counts and the
reason for any n far from the paper's (config/catalogue/paper_n_deviations.yaml)."""

from benchval.joblog import log_to_file
from benchval.tasks.sizes import task_sizes_table

log_to_file(snakemake.log[0])
table = task_sizes_table(snakemake.input.metas, snakemake.params.tasks, snakemake.params.deviations)
table.to_csv(snakemake.output[0], index=False)
