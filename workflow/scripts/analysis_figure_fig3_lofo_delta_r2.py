"""Snakemake script: Figure 3 of one study (benchval.analysis.figures.fig3_lofo_delta_r2); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import fig3_lofo_delta_r2
from benchval.analysis.figures.figure_step import run_figure_job
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_figure_job(fig3_lofo_delta_r2, dict(snakemake.input.items()), job.params, job.wildcards["study"])
