"""Dry-run reasons after a code change are short and still say what changed (issue 47 item 6).

Before: a rule's ``code=script_code(...)`` param was a dict of every imported module's hash, so a dry run
after editing one module printed a "Params have changed" reason of 3,900-10,600 characters per job (the
old dict and the new one). Now the param is ``<script>@<16-hex digest>`` and the files behind each digest
are recorded under ``.snakemake/benchval/code/``: ``python -m benchval.jobs.reruns changed BEFORE NOW``
names the changed files (docs/workflow.md, "What reruns when").

The workflow here is one rule whose script imports ``benchval.analysis.lofo``; the package is a copy in
``tmp_path`` (put first on PYTHONPATH), so that editing one of its modules leaves the checkout alone.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import benchval
from benchval.testing.snakemake_run import offline_env

LONGEST = 1000
RULES = """\
from benchval.jobs.reruns import script_code_for

script_code = script_code_for(workflow.current_basedir)


rule lofo_code:
    output:
        "done.txt",
    params:
        code=script_code("lofo_step.py"),
    shell:
        "echo done > {output}"
"""
SCRIPT = "from benchval.analysis import lofo\n"
EDITED = "analysis/lofo.py"


def _workflow(tmp_path: Path) -> dict[str, str]:
    """The package copy, the rule file and its script; the environment that imports the copy."""
    shutil.copytree(Path(benchval.__file__).parent, tmp_path / "src" / "benchval")
    (tmp_path / "wf" / "rules").mkdir(parents=True)
    (tmp_path / "wf" / "scripts").mkdir()
    (tmp_path / "wf" / "rules" / "Snakefile").write_text(RULES)
    (tmp_path / "wf" / "scripts" / "lofo_step.py").write_text(SCRIPT)
    (tmp_path / "run").mkdir()
    return offline_env(PYTHONPATH=str(tmp_path / "src"))


def _snakemake(tmp_path: Path, env: dict[str, str], *args: str) -> str:
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(tmp_path / "wf" / "rules" / "Snakefile")]
    command += ["--directory", str(tmp_path / "run"), "--cores", "1", *args]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result.stdout + result.stderr


def test_a_dry_run_after_a_module_edit_has_short_lines_that_name_the_change(tmp_path):
    env = _workflow(tmp_path)
    _snakemake(tmp_path, env)  # the finished run: its params recorded
    module = tmp_path / "src" / "benchval" / EDITED
    module.write_text(module.read_text() + "\n# an edit\n")

    output = _snakemake(tmp_path, env, "-n")
    [reason] = [line for line in output.splitlines() if "reason:" in line]
    assert "Params have changed" in reason, reason
    longest = max(output.splitlines(), key=len)
    assert len(longest) <= LONGEST, f"{len(longest)} characters: {longest[:300]}"

    before, now = re.findall(r"'(lofo_step\.py@[0-9a-f]{16})'", reason)
    listed = subprocess.run(
        [sys.executable, "-m", "benchval.jobs.reruns", "changed", before, now],
        cwd=tmp_path / "run",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [f"changed: benchval/{EDITED}"], listed.stdout


def test_the_changed_command_says_when_a_digest_was_never_recorded(tmp_path):
    env = _workflow(tmp_path)
    listed = subprocess.run(
        [sys.executable, "-m", "benchval.jobs.reruns", "changed", "x.py@" + "0" * 16, "x.py@" + "1" * 16],
        cwd=tmp_path / "run",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert listed.returncode == 1
    assert "no record of x.py@0000000000000000" in listed.stderr, listed.stderr


def test_a_run_finished_with_the_former_code_params_plans_nothing_after_migrate(tmp_path):
    """``python -m benchval.jobs.reruns migrate`` rewrites a finished run's recorded code tables to the short
    form: unchanged code then plans nothing (without it, every job of the run would replan once)."""
    env = _workflow(tmp_path)
    rules = tmp_path / "wf" / "rules" / "Snakefile"
    scripts = tmp_path / "wf" / "scripts"
    former = RULES.replace(
        "script_code = script_code_for(workflow.current_basedir)",
        "from benchval.jobs.reruns import code_digest\n"
        f"script_code = lambda name: code_digest({str(scripts)!r} + '/' + name)",
    )
    rules.write_text(former)
    _snakemake(tmp_path, env)  # finished with a dict of file hashes as its code param
    rules.write_text(RULES)
    assert "Params have changed" in _snakemake(tmp_path, env, "-n")

    migrate = [sys.executable, "-m", "benchval.jobs.reruns", "migrate"]
    done = subprocess.run(migrate, cwd=tmp_path / "run", env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("1 metadata records"), done.stdout + done.stderr
    assert "Nothing to be done" in _snakemake(tmp_path, env, "-n")
