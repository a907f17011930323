"""Snakemake as the tests (and benchmarks) run it: one command line, offline, timed.

Each run is a separate process, ``python -m snakemake`` with the interpreter that runs the caller,
started in the repository root. Hugging Face stays offline unless the caller's ``env`` says otherwise.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT

NOTHING_TO_DO = "Nothing to be done (all requested files are present and up to date)."
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def snakemake_command(
    workdir: Path,
    *configfiles: Path | str,
    cores: int | None = None,
    snakefile: Path = REPO_ROOT / "workflow" / "Snakefile",
) -> list[str]:
    """``python -m snakemake`` on ``snakefile`` in ``workdir``, with ``configfiles`` (in order) and ``cores``.

    Append the rest (targets, ``-n``, ...) to the list."""
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(snakefile), "--directory", str(workdir)]
    if configfiles:
        command += ["--configfile", *(str(path) for path in configfiles)]
    if cores is not None:
        command += ["--cores", str(cores)]
    return command


def offline_env(**variables: str) -> dict[str, str]:
    """This process's environment with Hugging Face offline (:data:`OFFLINE`) and ``variables`` set."""
    return dict(os.environ, **OFFLINE, **variables)


def run_snakemake(
    command: list[str], env: dict[str, str] | None = None, timeout: float = 600
) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``command`` in the repository root, output captured; ``env``: :func:`offline_env` if None.

    Returns the finished process (its exit status unchecked) and the seconds it took."""
    started = time.monotonic()
    result = subprocess.run(
        command,
        cwd=REPO_ROOT,
        env=offline_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return result, time.monotonic() - started


def job_counts(output: str) -> dict[str, int]:
    """Rule -> job count from the first "Job stats:" table in Snakemake's ``output``, its total
    checked and left out; {} where Snakemake says there is nothing to be done.

    ValueError where the output holds neither (or a table that does not add up)."""
    if "Job stats:" not in output:
        if NOTHING_TO_DO in output:
            return {}
        raise ValueError(f"Snakemake printed no job stats:\n{output[-3000:]}")
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    jobs = {rule: int(count) for rule, count in re.findall(r"^(\w+)\s+(\d+)$", table, re.MULTILINE)}
    if jobs.pop("total", None) != sum(jobs.values()) or not jobs:
        raise ValueError(f"Snakemake's job stats do not add up to their total:\n{table}")
    return jobs


def finished_rules(output: str) -> list[str]:
    """The rule of each job Snakemake's ``output`` reports finished, in order."""
    return re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)", output, re.MULTILINE)
