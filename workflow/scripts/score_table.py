"""Snakemake script of rule score_table: the tidy score table and task table of one scored study."""

from benchval.evaluation.score_table import write_score_table
from benchval.plumbing.job import start_job

job = start_job(snakemake)
write_score_table(
    list(snakemake.input.metrics),
    list(snakemake.input.metas),
    job.params["models"],
    job.params["labels"],
    job.params["criteria_files"],
    snakemake.output.table,
    snakemake.output.tasks,
)
