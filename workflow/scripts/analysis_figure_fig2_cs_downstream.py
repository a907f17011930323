"""Snakemake script: Figure 2 of one study (benchval.analysis.figures.fig2_cs_downstream); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import fig2_cs_downstream
from benchval.analysis.figures.figure_step import run_figure_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
tables = {name: path for name, path in snakemake.input.items() if name not in ("table", "tasks")}
run_figure_step(
    fig2_cs_downstream,
    snakemake.input.table,
    snakemake.input.tasks,
    tables,
    job.params["analysis"],
    job.params["out_dir"],
    job.wildcards["study"],
    job.params["notice"],
)
