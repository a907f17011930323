"""Snakemake script: copy each study's figures and tables into results/figures|tables/{study}/."""

import logging
import shutil
from pathlib import Path

from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])


def publish(paths, destination_root):
    for path in map(Path, paths):
        # results/studies/{study}/{figures|tables}/<file>  ->  <root>/{study}/<file>
        study = path.parts[path.parts.index("studies") + 1]
        target = Path(destination_root, study, path.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        logging.info("%s -> %s", path, target)


publish(snakemake.input.figures, snakemake.output.figures)
publish(snakemake.input.tables, snakemake.output.tables)
Path(snakemake.output.tables).mkdir(parents=True, exist_ok=True)
shutil.copy2(snakemake.input.task_sizes, Path(snakemake.output.tables, "task_sizes.csv"))
