"""Snakemake script: the atlas registry, leaderboard reports and cells (benchval.atlas.steps.write_sources)."""

from benchval.atlas.steps import write_sources
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
write_sources(snakemake.params.atlas, snakemake.params.mirror, dict(snakemake.output.items()))
