"""Snakemake script: Table 4 of one study (benchval.analysis.figures.table4_rank_displacement); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import table4_rank_displacement
from benchval.analysis.figures.figure_step import run_figure_job
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_figure_job(table4_rank_displacement, dict(snakemake.input.items()), job.params, job.wildcards["study"])
