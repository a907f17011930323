"""pyproject.toml, environment.yml and the rules' environment (workflow/envs/benchval.yaml) pin the same packages;
install.sh installs what the tests need."""

import re
import tomllib

import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.project_files.environment_file import (
    ENVIRONMENT_FILE,
    disagreements,
    environment_text,
    misdeclared_environments,
)

PYPROJECT = (REPO_ROOT / "pyproject.toml").read_text()


def _yaml(path):
    return yaml.safe_load((REPO_ROOT / path).read_text())


def test_pyproject_environment_yml_and_the_rules_environment_agree():
    assert disagreements(PYPROJECT, _yaml("environment.yml"), _yaml(ENVIRONMENT_FILE)) == []
    rules_environment = _yaml(ENVIRONMENT_FILE)
    assert rules_environment["dependencies"][2]["pip"][-1] == "-e ../.."  # the package, from this checkout


def test_a_made_up_mismatch_between_the_three_is_named():
    environment_yml = _yaml("environment.yml")
    pip = environment_yml["dependencies"][2]["pip"]
    pip[pip.index("numpy==2.4.6")] = "numpy==2.4.5"  # a pin edited in one file only
    pip.append("requests==2.32.0")  # a package pyproject.toml does not have
    rules_environment = yaml.safe_load(environment_text(PYPROJECT))
    rules_environment["dependencies"][0] = "python=3.12"
    rules_environment["dependencies"][2]["pip"].remove("scipy==1.17.1")
    problems = disagreements(PYPROJECT, environment_yml, rules_environment)
    print("\n".join(problems))
    assert problems == [
        "environment.yml: numpy==2.4.5, pyproject.toml numpy==2.4.6",
        "environment.yml: requests==2.32.0 is not in pyproject.toml",
        "workflow/envs/benchval.yaml: python=3.12, pyproject.toml requires-python floor 3.11",
        "workflow/envs/benchval.yaml: scipy==1.17.1 of pyproject.toml is missing",
    ]


def test_every_conda_directive_names_the_environment_file():
    rule_files = [REPO_ROOT / "workflow" / "Snakefile", *sorted((REPO_ROOT / "workflow" / "rules").glob("*.smk"))]
    assert misdeclared_environments(rule_files, REPO_ROOT) == []


def test_a_conda_path_not_relative_to_its_rule_file_is_caught(tmp_path):
    (tmp_path / ENVIRONMENT_FILE).parent.mkdir(parents=True)
    (tmp_path / ENVIRONMENT_FILE).write_text("")
    (tmp_path / "workflow" / "rules").mkdir()
    rules = tmp_path / "workflow" / "rules" / "x.smk"
    rules.write_text(
        'rule a:\n    conda:\n        "../envs/benchval.yaml"\n'  # right: relative to workflow/rules/
        'rule b:\n    conda:\n        "envs/benchval.yaml"\n'  # workflow/rules/envs/: wrong
    )
    assert misdeclared_environments([rules], tmp_path) == [
        "workflow/rules/x.smk:6: conda: 'envs/benchval.yaml' is not workflow/envs/benchval.yaml"
    ]


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
