"""Snakemake script: the human_preference study (benchval.atlas.steps.human_preference)."""

from benchval.atlas.steps.human_preference import write_human_preference
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p, i, o = snakemake.params, snakemake.input, snakemake.output
write_human_preference(p.atlas, p.seed, p.ci_level, i.cells, i.models, o.table, o.excluded)
