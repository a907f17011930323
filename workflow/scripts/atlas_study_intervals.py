"""Snakemake script: bootstrap CIs of an atlas study's correlations (benchval.atlas.steps.intervals)."""

from benchval.atlas.steps.intervals import write_study_intervals
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p, i = snakemake.params, snakemake.input
write_study_intervals(p.atlas, p.seed, p.ci_level, i.table, i.tasks, snakemake.output.table)
