"""No module of the package reads a Snakemake job object: scripts call benchval.plumbing.job.start_job
and pass plain values on (docs/workflow.md)."""

from __future__ import annotations

import ast
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


def first_statement_problems(scripts: list[Path]) -> list[str]:
    """Scripts whose first statement after the docstring, the imports and ``sm = snakemake`` is not a call of
    ``start_job`` (``job = start_job(snakemake)``)."""
    problems = []
    for path in scripts:
        body = [node for node in ast.parse(path.read_text(encoding="utf-8")).body if not _is_preamble(node)]
        call = getattr(body[0], "value", None) if body else None  # job = start_job(...), or start_job(...) alone
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "start_job"):
            problems.append(path.name)
    return problems


def _is_preamble(node) -> bool:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # the docstring
        return True
    return isinstance(node, ast.Assign) and getattr(node.value, "id", None) == "snakemake"  # sm = snakemake


def test_every_rule_script_starts_with_start_job():
    scripts = sorted((REPO_ROOT / "workflow" / "scripts").glob("*.py"))
    assert len(scripts) > 50
    assert first_statement_problems(scripts) == []


def test_a_script_that_logs_on_its_own_is_caught(tmp_path):
    good = tmp_path / "good.py"
    good.write_text('"""Doc."""\nfrom x import start_job\nsm = snakemake\njob = start_job(sm)\nrun(job.params)\n')
    bad = tmp_path / "bad.py"
    bad.write_text('"""Doc."""\nimport logging\nlogging.basicConfig(filename=snakemake.log[0])\nrun()\n')
    assert first_statement_problems([good, bad]) == ["bad.py"]
