"""Snakemake script: an item study's validity curve and item map (benchval.items.figures)."""

from pathlib import Path

from benchval.items.figures import write_figures
from benchval.plumbing.job import start_job

job = start_job(snakemake)
study_dir = str(Path(snakemake.input.curve).parent)
out_dir = str(Path(snakemake.output[0]).parent)
write_figures(study_dir, snakemake.input.irt, job.params["headline"], out_dir, job.params["formats"], job.params["dpi"])
