"""benchval.testing.snakemake_run: the command line, the environment, and reading Snakemake's output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import (
    NOTHING_TO_DO,
    finished_rules,
    job_counts,
    run_snakemake,
    snakemake_command,
)

DRY_RUN = """Building DAG of jobs...
Job stats:
job              count
-------------  -------
all                  1
prepare_task         2
score                4
total                7

rule score:
    jobid: 3
"""


def test_the_command_names_snakefile_directory_configfiles_and_cores():
    command = snakemake_command(Path("/w"), Path("/c/a.yaml"), "b.yaml", cores=2, snakefile=Path("/s/Snakefile"))
    assert command == [
        *(sys.executable, "-m", "snakemake", "--snakefile", "/s/Snakefile", "--directory", "/w"),
        *("--configfile", "/c/a.yaml", "b.yaml", "--cores", "2"),
    ]
    assert snakemake_command(Path("/w")) == [
        *(
            sys.executable,
            "-m",
            "snakemake",
            "--snakefile",
            str(REPO_ROOT / "workflow" / "Snakefile"),
            "--directory",
            "/w",
        )
    ]


def test_job_counts_read_the_first_table_and_check_its_total():
    assert job_counts(DRY_RUN + DRY_RUN.replace("score                4", "score                9")) == {
        "all": 1,
        "prepare_task": 2,
        "score": 4,
    }
    assert job_counts(f"Building DAG of jobs...\n{NOTHING_TO_DO}\n") == {}
    with pytest.raises(ValueError, match="printed no job stats"):
        job_counts("Building DAG of jobs...\nMissingInputException\n")
    with pytest.raises(ValueError, match="do not add up"):
        job_counts(DRY_RUN.replace("total                7", "total                8"))


def test_finished_rules_in_order():
    output = "Finished jobid: 2 (Rule: prepare_task)\nnoise\nFinished jobid: 0 (Rule: all)\n"
    assert finished_rules(output) == ["prepare_task", "all"]


def test_a_run_is_offline_in_the_repository_root_and_timed():
    show = "import os; print(os.getcwd(), os.environ['HF_HUB_OFFLINE'], os.environ['TRANSFORMERS_OFFLINE'])"
    result, seconds = run_snakemake([sys.executable, "-c", show], timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(REPO_ROOT), "1", "1"]
    assert seconds > 0
    failed, _ = run_snakemake([sys.executable, "-c", "raise SystemExit(3)"], env={}, timeout=60)
    assert failed.returncode == 3  # not raised: the caller reads the output first
