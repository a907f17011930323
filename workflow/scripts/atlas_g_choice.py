"""Snakemake script: which general factor the open_llm headline controls for (benchval.atlas.steps.atlas_g_choice)."""

from benchval.atlas.steps.atlas_g_choice import write_g_choice
from benchval.plumbing.job import start_job

job = start_job(snakemake)
p = job.params
write_g_choice(p["atlas"], p["study"], p["seed"], p["ci_level"], dict(snakemake.input), snakemake.output.table)
