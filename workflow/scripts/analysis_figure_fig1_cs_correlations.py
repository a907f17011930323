"""Snakemake script: Figure 1 of one study (benchval.analysis.figures.fig1_cs_correlations); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import fig1_cs_correlations
from benchval.analysis.figures.figure_step import run_figure_job
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_figure_job(fig1_cs_correlations, dict(snakemake.input.items()), job.params, job.wildcards["study"])
