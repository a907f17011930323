"""The rules' software environment, workflow/envs/benchval.yaml, written from pyproject.toml's pins.

pyproject.toml is the one source of the pins. Every rule declares ``conda: "../envs/benchval.yaml"`` (the
path is relative to its rule file), so ``snakemake --use-conda`` runs each job in one conda environment:
Python at the floor of ``requires-python``, the package's runtime dependencies (``[project]
dependencies``, pinned as in pyproject.toml) and the package itself from the checkout the file lies in
(``-e ../..``: conda runs pip in the environment file's folder). The test and bench extras are the test
suite's, not the rules'. environment.yml, the environment of a person working on the checkout, holds the
same pins and the extras; :func:`disagreements` names every pin, Python version or channel in which the
three files differ (tests/test_packaging.py). The file is written by
``python -m benchval.project_files.generated_files``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ENVIRONMENT_FILE = Path("workflow/envs/benchval.yaml")
CHANNELS = ["conda-forge"]
PACKAGE_FROM_CHECKOUT = "-e ../.."  # relative to workflow/envs/, where conda runs pip


def python_floor(requires_python: str) -> str:
    """``>=3.11`` -> ``3.11``: the oldest Python the package supports, the one its environments pin."""
    match = re.fullmatch(r"\s*>=\s*(\d+\.\d+)\s*", requires_python)
    if match is None:
        raise ValueError(f"pyproject.toml: requires-python {requires_python!r} is not of the form '>=X.Y'")
    return match.group(1)


def environment_text(pyproject_text: str) -> str:
    """The text of workflow/envs/benchval.yaml for this pyproject.toml (laid out as environment.yml)."""
    project = tomllib.loads(pyproject_text)["project"]
    pip = [*project["dependencies"], PACKAGE_FROM_CHECKOUT]
    lines = [
        "# Generated from pyproject.toml by `python -m benchval.project_files.generated_files`: do not edit by hand.",
        "# The software environment the rules declare (snakemake --use-conda): the package's runtime pins and",
        "# the package from this checkout. Kept in step with environment.yml by tests/test_packaging.py.",
        "name: benchval",
        "channels:",
        *(f"  - {channel}" for channel in CHANNELS),
        "dependencies:",
        f"  - python={python_floor(project['requires-python'])}",
        "  - pip",
        "  - pip:",
        *(f"      - {line}" for line in pip),
    ]
    return "\n".join(lines) + "\n"


def conda_pins(environment: dict, name: str) -> tuple[str, list[str], dict[str, str]]:
    """(python version, channels, {package: version specifier}) of a conda environment file's content;
    ``-e`` lines (the package itself) are not pins."""
    dependencies = environment.get("dependencies") or []
    pythons = [entry for entry in dependencies if isinstance(entry, str) and re.match(r"python\W", entry)]
    if len(pythons) != 1:
        raise ValueError(f"{name}: expected one python=X.Y entry under dependencies, found {pythons}")
    pip = [entry["pip"] for entry in dependencies if isinstance(entry, dict) and "pip" in entry]
    if len(pip) != 1:
        raise ValueError(f"{name}: expected one pip: list under dependencies, found {len(pip)}")
    pins = _pins([line for line in pip[0] if not line.startswith("-e ")], name)
    return pythons[0].split("=", 1)[1], list(environment.get("channels") or []), pins


def _pins(lines: list[str], name: str) -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in lines:
        requirement = Requirement(line)
        key = canonicalize_name(requirement.name)
        if key in pins:
            raise ValueError(f"{name}: {requirement.name} is pinned twice")
        pins[key] = str(requirement.specifier)
    return pins


def disagreements(pyproject_text: str, environment_yml: dict, rules_environment: dict) -> list[str]:
    """Every way in which pyproject.toml, environment.yml and the rules' environment differ, one line each
    naming the package (or the Python version, the channels) and the files; empty when they agree.

    environment.yml must pin exactly pyproject's dependencies and its test and bench extras; the rules'
    environment exactly its dependencies; both the Python floor of requires-python and the same channels.
    """
    project = tomllib.loads(pyproject_text)["project"]
    extras = project.get("optional-dependencies", {})
    runtime = _pins(project["dependencies"], "pyproject.toml [project] dependencies")
    development = _pins([*project["dependencies"], *extras.get("test", []), *extras.get("bench", [])], "pyproject.toml")
    python = python_floor(project["requires-python"])
    problems = []
    for name, content, wanted in (
        ("environment.yml", environment_yml, development),
        (str(ENVIRONMENT_FILE), rules_environment, runtime),
    ):
        env_python, channels, pins = conda_pins(content, name)
        if env_python != python:
            problems.append(f"{name}: python={env_python}, pyproject.toml requires-python floor {python}")
        if channels != CHANNELS:
            problems.append(f"{name}: channels {channels}, expected {CHANNELS}")
        for package in sorted(wanted.keys() | pins.keys()):
            if package not in pins:
                problems.append(f"{name}: {package}{wanted[package]} of pyproject.toml is missing")
            elif package not in wanted:
                problems.append(f"{name}: {package}{pins[package]} is not in pyproject.toml")
            elif pins[package] != wanted[package]:
                problems.append(f"{name}: {package}{pins[package]}, pyproject.toml {package}{wanted[package]}")
    return problems


CONDA_DIRECTIVE = re.compile(r"^\s*conda:\s*\n?\s*[\"']([^\"']+)[\"']", re.MULTILINE)


def misdeclared_environments(rule_files: list[Path], repo: Path) -> list[str]:
    """``conda:`` directives of the Snakefile and the rule files that do not name :data:`ENVIRONMENT_FILE`.

    Snakemake reads a ``conda:`` path relative to the file that holds the rule, so a rule in
    ``workflow/rules/`` names ``"../envs/benchval.yaml"``; ``"envs/benchval.yaml"`` there would point at
    ``workflow/rules/envs/``, which does not exist. One line per wrong directive: file, line, path."""
    wanted = (repo / ENVIRONMENT_FILE).resolve()
    wrong = []
    for path in rule_files:
        text = path.read_text(encoding="utf-8")
        for match in CONDA_DIRECTIVE.finditer(text):
            if (path.parent / match.group(1)).resolve() != wanted:
                line = text.count("\n", 0, match.start(1)) + 1
                wrong.append(f"{path.relative_to(repo)}:{line}: conda: {match.group(1)!r} is not {ENVIRONMENT_FILE}")
    return wrong
