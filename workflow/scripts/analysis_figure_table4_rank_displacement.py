"""Snakemake script: Table 4 of one study (benchval.analysis.figures.table4_rank_displacement); its own script, so that
editing another figure's module does not redraw this one."""

from benchval.analysis.figures import table4_rank_displacement
from benchval.analysis.figures.figure_step import run_figure_step
from benchval.plumbing.job import start_job

job = start_job(snakemake)
tables = {name: path for name, path in snakemake.input.items() if name not in ("table", "tasks")}
run_figure_step(
    table4_rank_displacement,
    snakemake.input.table,
    snakemake.input.tasks,
    tables,
    job.params["analysis"],
    job.params["out_dir"],
    job.wildcards["study"],
    job.params["notice"],
)
