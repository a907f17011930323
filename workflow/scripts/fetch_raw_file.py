"""Snakemake script: download one declared raw file into resources/data/ and check its sha256."""

import logging
from pathlib import Path

from benchval.plumbing.raw_files import DataFile, fetch_to
from benchval.plumbing.job import start_job

job = start_job(snakemake)
data_file = DataFile(**job.params["entry"])
mirror = Path(job.params["mirror"]) if job.params["mirror"] else None
logging.info("fetching %s from %s", data_file.path, data_file.url)
fetch_to(data_file, snakemake.output[0], mirror)
logging.info("wrote %s (sha256 %s)", snakemake.output[0], data_file.sha256)
