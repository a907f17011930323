"""environment.yml and pyproject.toml must pin the same packages."""

import tomllib

import yaml

from benchval.paths import REPO_ROOT


def test_environment_yml_pins_match_pyproject():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    wanted = set(project["dependencies"]) | set(project["optional-dependencies"]["test"])
    environment = yaml.safe_load((REPO_ROOT / "environment.yml").read_text())
    pip_section = next(entry["pip"] for entry in environment["dependencies"] if isinstance(entry, dict))
    assert set(pip_section) - {"-e ."} == wanted


def test_ci_runs_the_readme_test_command():
    readme = (REPO_ROOT / "README.md").read_text()
    ci_command = (REPO_ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci_command in readme
