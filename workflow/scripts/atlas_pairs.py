"""Snakemake script: the atlas proper (benchval.atlas.steps.pairs)."""

from benchval.atlas.steps.pairs import write_pairs
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p = snakemake.params
write_pairs(p.atlas, p.seed, p.ci_level, snakemake.input.cells, snakemake.output.pairs, snakemake.output.excluded)
