"""Snakemake script: copy each study's figures and tables into results/figures|tables/{study}/,
and list what was published (benchval.plumbing.published_folders: a deleted published file is rebuilt)."""

import shutil
from pathlib import Path

from benchval.joblog import log_to_file
from benchval.plumbing.published_folders import copy_published, write_published_manifest

log_to_file(snakemake.log[0])
written = copy_published(snakemake.input.figures, snakemake.output.figures)
written += copy_published(snakemake.input.tables, snakemake.output.tables)
Path(snakemake.output.tables).mkdir(parents=True, exist_ok=True)
shutil.copy2(snakemake.input.task_sizes, Path(snakemake.output.tables, "task_sizes.csv"))
written.append(Path(snakemake.output.tables, "task_sizes.csv"))
write_published_manifest(written, snakemake.output.manifest)
