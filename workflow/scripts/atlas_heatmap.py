"""Snakemake script: the atlas heatmap (benchval.atlas.steps.heatmap)."""

from benchval.atlas.steps.heatmap import write_heatmap
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
p = snakemake.params
write_heatmap(p.atlas, p.alpha, p.dpi, snakemake.input.pairs, list(snakemake.output))
