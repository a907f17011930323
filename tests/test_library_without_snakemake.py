"""No module of the package reads a Snakemake job object: scripts call benchval.plumbing.job.start_job
and pass plain values on (docs/workflow.md)."""

from __future__ import annotations

import re
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT

# a job object's attributes read off a name a script would give it
JOB_ATTRIBUTE = re.compile(r"\b(?:snakemake|sm|job)\.(?:input|output|wildcards|log|threads|config|params|resources)\b")
THE_BRIDGE = "plumbing/job.py"  # start_job: the one place that reads the job


def job_object_reads(package: Path) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() == THE_BRIDGE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if JOB_ATTRIBUTE.search(line):
                found.append(f"{path.relative_to(package)}:{number}: {line.strip()}")
    return found


def test_no_library_module_reads_a_snakemake_job():
    assert job_object_reads(REPO_ROOT / "src" / "benchval") == []


def test_a_module_that_reads_the_job_is_caught(tmp_path):
    (tmp_path / "plumbing").mkdir()
    (tmp_path / "plumbing" / "job.py").write_text("threads = snakemake.threads\n")  # the bridge: allowed
    (tmp_path / "stage.py").write_text("def run(job):\n    return job.config['local']\n")
    assert job_object_reads(tmp_path) == ["stage.py:2: return job.config['local']"]
