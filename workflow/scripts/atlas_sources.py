"""Snakemake script: the atlas registry, leaderboard reports and cells (benchval.atlas.steps.sources)."""

from benchval.atlas.steps.sources import write_sources
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
# the rules and overrides files as the rule found them (paths of the repository, not of the working directory)
atlas = {**snakemake.params.atlas, "rules": snakemake.input.rules, "overrides": snakemake.input.overrides}
write_sources(atlas, snakemake.params.mirror, dict(snakemake.output.items()))
