"""environment.yml and pyproject.toml must pin the same packages; install.sh installs what the tests need."""

import re
import tomllib

import yaml

from benchval.plumbing.folders import REPO_ROOT


def test_environment_yml_pins_match_pyproject():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    wanted = set(project["dependencies"]) | set(extras["test"]) | set(extras["bench"])
    environment = yaml.safe_load((REPO_ROOT / "environment.yml").read_text())
    pip_section = next(entry["pip"] for entry in environment["dependencies"] if isinstance(entry, dict))
    assert set(pip_section) - {"-e ."} == wanted


def test_install_sh_installs_the_test_and_bench_extras():
    """The README's test command runs install.sh: it must bring pytest and lm-evaluation-harness, or the
    lm-eval agreement tests would skip on every CI run."""
    install = (REPO_ROOT / "install.sh").read_text()
    installs = re.findall(r"pip install .*-e \"?\.\[([\w,]+)\]", install)
    assert installs and {"test", "bench"} <= set(installs[0].split(",")), installs


def test_pytest_summary_lists_every_skip_with_its_reason():
    """CI runs `pytest -q`; the -r option with 's' in pyproject's addopts makes its closing summary
    list each skipped test and why."""
    options = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert any(re.fullmatch(r"-r\w*[sa]\w*", option) for option in options["addopts"].split()), options


def test_ci_runs_the_readme_test_command():
    readme = (REPO_ROOT / "README.md").read_text()
    ci_command = (REPO_ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci_command in readme


def test_test_file_names_are_unique():
    # pytest's default import mode puts each test folder on sys.path, so two test files with the
    # same name in different folders fail at collection on a clean checkout.
    names = [path.name for path in (REPO_ROOT / "tests").rglob("test_*.py")]
    assert sorted(name for name in set(names) if names.count(name) > 1) == []
