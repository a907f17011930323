"""Snakemake script: agreement beside validity (benchval.atlas.steps.agreement)."""

from benchval.atlas.steps.agreement import write_agreement
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p, i = snakemake.params, snakemake.input
write_agreement(p.atlas, p.seed, p.ci_level, i.cells, i.predictors, snakemake.output.table)
