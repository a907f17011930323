"""Snakemake script: the explorer page of one study (benchval.atlas.study_explorer)."""

from benchval.plumbing.job import start_job
from benchval.atlas.study_explorer import write_study_explorer

job = start_job(snakemake)
write_study_explorer(
    snakemake.wildcards.study,
    dict(snakemake.input.items()),
    float(job.params["ci_level"]),
    int(job.params["top_k"]),
    snakemake.output.page,
)
