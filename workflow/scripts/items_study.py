"""Snakemake script: item validity and the validity curve of one item study (benchval.items.study)."""

from pathlib import Path

from benchval.items.study import run_study_step
from benchval.plumbing.job import plain, start_job

job = start_job(snakemake)
inputs = {**plain(snakemake.input), "irt": job.params["irt_dirs"]}
if "cells" in inputs:
    inputs["atlas"] = {key: inputs[key] for key in ("names", "models", "cells")}
study = job.wildcards["study"]
run_study_step(
    study,
    job.params["study"],
    job.params["settings"],
    job.params["seed"],
    inputs,
    str(Path(snakemake.output[0]).parent),
)
