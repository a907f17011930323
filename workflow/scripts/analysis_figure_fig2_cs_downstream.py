"""Snakemake script: Figure 2 of one study (benchval.analysis.figures.fig2_cs_downstream); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import fig2_cs_downstream
from benchval.analysis.figures.figure_step import run_figure_job
from benchval.plumbing.job import start_job

job = start_job(snakemake)
run_figure_job(fig2_cs_downstream, dict(snakemake.input.items()), job.params, job.wildcards["study"])
