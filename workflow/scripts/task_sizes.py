"""Snakemake script: every scored task's final n beside the paper's n, with filter counts."""
from benchval.tasks.sizes import task_sizes_table

task_sizes_table(snakemake.input.metas, snakemake.params.tasks).to_csv(snakemake.output[0], index=False)
