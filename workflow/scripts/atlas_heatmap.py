"""Snakemake script: the atlas heatmap (benchval.atlas.steps.write_heatmap)."""

from benchval.atlas.steps import write_heatmap
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p = snakemake.params
write_heatmap(p.atlas, p.alpha, p.dpi, snakemake.input.pairs, list(snakemake.output))
