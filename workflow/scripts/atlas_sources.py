"""Snakemake script: the atlas registry, leaderboard reports and cells (benchval.atlas.steps.atlas_sources)."""

from benchval.atlas.steps.atlas_sources import write_sources
from benchval.plumbing.job import start_job
from benchval.plumbing.raw_content_checks import verify_raw_content

job = start_job(snakemake)
verify_raw_content(job.params["raw_content"])  # the raw files against the sha256 they were planned with
# the rules and overrides files as the rule found them (paths of the repository, not of the working directory)
atlas = {
    **job.params["atlas"],
    "rules": snakemake.input.rules,
    "overrides": snakemake.input.overrides,
    "display_names": snakemake.input.display_names,
}
write_sources(atlas, job.params["mirror"], dict(snakemake.output.items()))
