"""Formatting and lint by tools, as CI's part of the checks: ruff (format and check, configured in
pyproject.toml) for Python, snakefmt for the Snakefile and the rule files (ruff does not read them), and
Snakemake's own linter (`snakemake --lint`) on the workflow.
The same hooks run locally through .pre-commit-config.yaml."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchval.plumbing.folders import REPO_ROOT

BIN = Path(sys.executable).parent
SNAKE_FILES = ["workflow/Snakefile", "workflow/rules", "tests/report/toy/Snakefile", "tests/slurm/toy/Snakefile"]


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        found = shutil.which(name)
        if not found:
            pytest.fail(f"{name} is not installed: ./install.sh installs it (the `test` extra)")
        return found
    return str(path)


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)


def test_python_is_formatted_by_ruff():
    result = run(tool("ruff"), "format", "--check", ".")
    assert result.returncode == 0, f"run `ruff format .`:\n{result.stdout}{result.stderr}"


def test_python_passes_ruff_check():
    result = run(tool("ruff"), "check", ".")
    assert result.returncode == 0, f"run `ruff check --fix .` and fix the rest:\n{result.stdout}{result.stderr}"


def test_snakemake_files_are_formatted_by_snakefmt():
    files = [f for f in SNAKE_FILES if (REPO_ROOT / f).exists()]
    result = run(tool("snakefmt"), "--check", *files)
    assert result.returncode == 0, f"run `snakefmt {' '.join(files)}`:\n{result.stdout}{result.stderr}"


# `snakemake --lint` reports nothing (the workflow catalogue's conventions, issue 32): every rule has a software
# environment, a log and a benchmark; no path is composed with `+`; no shell command indexes its files; no rule
# file defines functions beside its rules (its helpers are named lambdas, or functions of the domain packages); no param
# hard-codes a folder of its rule's files (a function derives it from the rule's input or output).


def lint_titles(output: str) -> list[str]:
    """The title of every lint in ``snakemake --lint``'s plain output (``    * <title>:``)."""
    return [line.strip()[2:].rstrip(":") for line in output.splitlines() if line.startswith("    * ")]


def snakemake_lint(snakefile: str | Path, directory: Path, *options: str) -> tuple[list[str], str, int]:
    """The lint titles of ``snakemake --lint`` on ``snakefile``, what it printed and its exit status (1 when
    it reports a lint)."""
    command = ("-m", "snakemake", "--snakefile", str(snakefile), "--directory", str(directory), *options, "--lint")
    result = run(sys.executable, *command)
    output = result.stdout + result.stderr
    return lint_titles(output), output, result.returncode


def test_snakemake_lint_reports_nothing(tmp_path):
    titles, output, status = snakemake_lint("workflow/Snakefile", tmp_path, "--configfile", "config/config.yaml")
    assert titles == [], "\n".join(sorted(set(titles)))
    assert status == 0, output[-3000:]  # the workflow parsed and the linter ran


# A made-up workflow of two files (Snakemake lints mixing only in a workflow of several): its rule file with
# a function beside its rule is reported; the same rule with the function in a lambda is not.
TOY_RULE = """
rule toy:
    output:
        "toy.txt",
    log:
        "logs/toy.log",
    benchmark:
        "benchmarks/toy.tsv"
    conda:
        "env.yaml"
    params:
        word={word},
    shell:
        "echo {{params.word}} > {{output}} 2> {{log}}"
"""


def made_up_workflow(root: Path, rule_file: str) -> Path:
    (root / "rules").mkdir(parents=True)
    (root / "env.yaml").write_text("dependencies: [python]\n")
    (root / "rules" / "toy.smk").write_text(rule_file)
    (root / "Snakefile").write_text('include: "rules/toy.smk"\n')
    return root / "Snakefile"


def test_the_lint_reports_a_rule_file_with_a_function_beside_its_rule(tmp_path):
    mixed = made_up_workflow(
        tmp_path / "mixed", 'def word(wildcards):\n    return "hi"\n\n' + TOY_RULE.format(word="word")
    )
    titles, output, _ = snakemake_lint(mixed, tmp_path / "mixed")
    assert titles == ["Mixed rules and functions in same snakefile."], output[-3000:]

    clean = made_up_workflow(tmp_path / "clean", TOY_RULE.format(word='lambda wildcards: "hi"'))
    titles, output, status = snakemake_lint(clean, tmp_path / "clean")
    assert (titles, status) == ([], 0), output[-3000:]


def test_a_hardcoded_folder_param_is_reported(tmp_path):
    hardcoded = made_up_workflow(
        tmp_path / "hardcoded", TOY_RULE.replace('"toy.txt"', '"out/toy.txt"').format(word='"out"')
    )
    titles, output, _ = snakemake_lint(hardcoded, tmp_path / "hardcoded")
    assert titles == ["Param word is a prefix of input or output file but hardcoded"], output[-3000:]
