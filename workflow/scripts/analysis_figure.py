"""Snakemake script: one figure of one study (benchval.analysis.figures.run_figure_step)."""

import logging

from benchval.analysis.figures import run_figure_step
from benchval.joblog import log_to_file

log_to_file(snakemake.log[0])
logging.captureWarnings(True)
tables = {name: path for name, path in snakemake.input.items() if name not in ("table", "tasks")}
run_figure_step(
    snakemake.params.stem,
    snakemake.input.table,
    snakemake.input.tasks,
    tables,
    snakemake.params.analysis,
    snakemake.params.out_dir,
    snakemake.wildcards.study,
    snakemake.params.notice,
)
