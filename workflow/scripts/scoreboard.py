"""Snakemake script: the scoreboard table and figure of one scored study (benchval.analysis.steps.scoreboard)."""

from pathlib import Path

from benchval.analysis.steps.scoreboard import run_scoreboard_step
from benchval.plumbing.job import plain, start_job

job = start_job(snakemake)
run_scoreboard_step(
    job.wildcards["study"],
    plain(snakemake.input),
    job.params,
    snakemake.output.table,
    Path(snakemake.output.figures[0]).parent,
)
