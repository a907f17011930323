"""Snakemake script: Figure 4 of one study (benchval.analysis.figures.fig4_axis_tests); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import fig4_axis_tests
from benchval.analysis.figures.figure_step import run_figure_job
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_figure_job(fig4_axis_tests, dict(snakemake.input.items()), job.params, job.wildcards["study"])
