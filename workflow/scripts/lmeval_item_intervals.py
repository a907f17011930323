"""Snakemake script: item-bootstrap intervals of an lm_eval study with samples (benchval.lmeval.importer)."""

from benchval.joblog import log_to_file
from benchval.lmeval.importer import write_item_intervals

log_to_file(snakemake.log[0])
write_item_intervals(
    snakemake.wildcards.study,
    snakemake.params.study,
    snakemake.params.mirror,
    snakemake.output.intervals,
    snakemake.params.seed,
)
