"""Snakemake script: open_llm against ObsScaling's own runs (benchval.atlas.steps.crosscheck)."""

from benchval.atlas.steps.crosscheck import write_crosscheck
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p, i = snakemake.params, snakemake.input
write_crosscheck(p.atlas, p.mirror, i.cells, i.names, p.study, p.atlas["min_models"], snakemake.output.table)
