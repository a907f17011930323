"""The ``benchval`` command line (benchval.jobs.cli): each journey of README.md ("One line per journey") is run
here as written (in a copy of the checkout, with ``--dry-run``: Snakemake plans it, nothing is computed),
prints the Snakemake command it runs first, and leaves the workflow to do the work."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest
import yaml

from benchval.jobs import cli
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.snakemake_run import offline_env

LMEVAL_RUNS = REPO_ROOT / "tests/lmeval/real_runs/out"


def journeys() -> dict[str, str]:
    """The README's journey lines: comment (after #) -> command."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## One line per journey", 1)[1].split("\n## ", 1)[0]
    found = {}
    for line in block.splitlines():
        if line.startswith("    benchval "):
            command, _, comment = line.strip().partition("#")
            found[comment.strip()] = command.strip()
    return found


def test_the_console_script_is_declared():
    scripts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"benchval": "benchval.jobs.cli:main"}


def test_nested_keys_from_the_command_line():
    assert cli.nested_keys(["analysis.n_bootstrap=500", "analysis.fdr.alpha=0.1", "mirror=null"]) == {
        "analysis": {"n_bootstrap": 500, "fdr": {"alpha": 0.1}},
        "mirror": None,
    }
    for bad in ("analysis.n_bootstrap", "=3", "a..b=1"):
        with pytest.raises(cli.UsageError, match="KEY.PATH=VALUE"):
            cli.nested_keys([bad])
    with pytest.raises(cli.UsageError, match="was set to a value above"):
        cli.nested_keys(["seed=1", "seed.x=2"])


def test_a_role_for_an_unknown_column_or_no_role_stops_in_one_line():
    with pytest.raises(cli.UsageError, match=r"--role 'GSM=downstream': expected COLUMN=ROLE with COLUMN one of"):
        cli.roles(["GSM=downstream"], ["GSM8K"], "COLUMN")
    with pytest.raises(cli.UsageError, match="no --role"):
        cli.roles([], ["GSM8K"], "COLUMN")


def test_a_csv_without_the_model_columns_stops_naming_them(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("name,HellaSwag\na,0.5\n")
    with pytest.raises(cli.UsageError, match=r"line 1 lacks the column\(s\) \['model', 'family', 'size_b'\]"):
        cli.csv_study(path, "s", ["HellaSwag=cs_original"], None)


def test_an_lmeval_folder_becomes_a_study_with_its_models_and_tasks():
    models, tasks, samples = cli.lmeval_runs(LMEVAL_RUNS)
    assert models == {"tiny-model": "tiny-model"} and "hellaswag" in tasks and samples


def _checkout(destination: Path) -> Path:
    for name in ("workflow", "config", "profiles"):
        shutil.copytree(REPO_ROOT / name, destination / name, ignore=shutil.ignore_patterns("__pycache__", "results"))
    rng = pd.Series(range(8))
    pd.DataFrame(
        {
            "model": [f"m{i}" for i in range(8)],
            "family": [f"f{i % 4}" for i in range(8)],
            "size_b": (rng + 1) * 0.5,
            "HellaSwag": 0.3 + 0.05 * rng,
            "ARC": 0.2 + 0.04 * rng[::-1].to_numpy(),
            "GSM8K": 0.1 + 0.03 * rng,
        }
    ).to_csv(destination / "my_scores.csv", index=False)
    shutil.copytree(LMEVAL_RUNS, destination / "runs")
    (destination / "models/my-model").mkdir(parents=True)  # a save_pretrained folder (its config is the input)
    (destination / "models/my-model/config.json").write_text('{"model_type": "gpt2"}')
    return destination


def _run(words: list[str], workdir: Path) -> subprocess.CompletedProcess:
    assert words[0] == "benchval"
    return subprocess.run(
        [sys.executable, "-m", "benchval.jobs.cli", *words[1:], "--dry-run"],
        cwd=workdir,
        env=offline_env(PYTHONPATH=str(REPO_ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=600,
    )


# journey -> (words the test appends, the rule Snakemake must plan)
JOURNEYS = {
    "your own score table": (["--set", "analysis.n_bootstrap=200"], "study_my_scores"),
    "an lm-eval --output_path folder": (["--family", "tiny-model=pythia"], "study_runs"),
    "a model added to the default study": ([], "prepare_model"),
    "the validity atlas's report": ([], "atlas_report"),
}


def test_the_readme_lists_the_four_journeys():
    assert set(journeys()) == set(JOURNEYS)


@pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
@pytest.mark.parametrize("journey", list(JOURNEYS))
def test_each_journey_of_the_readme_runs_and_prints_its_snakemake_command(journey, tmp_path):
    workdir = _checkout(tmp_path)
    extra, rule = JOURNEYS[journey]
    result = _run(shlex.split(journeys()[journey]) + extra, workdir)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    printed = result.stdout.splitlines()[0]
    assert re.match(r"^\S*snakemake --cores 2 --dry-run (\S+ )+--configfile config/config\.yaml", printed), printed
    assert re.search(rf"\b{rule}\b", output), output[-3000:]  # Snakemake planned the journey's work
    for generated in re.findall(r"resources/cli/\S+\.yaml", printed):
        assert yaml.safe_load((workdir / generated).read_text()), generated
    if journey == "your own score table":
        overrides = next(p for p in re.findall(r"resources/cli/set-\S+\.yaml", printed))
        assert yaml.safe_load((workdir / overrides).read_text()) == {"analysis": {"n_bootstrap": 200}}


def test_outside_the_repository_it_stops_before_running_anything(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["atlas"]) == 2
    assert "run it from the repository root" in capsys.readouterr().err


@pytest.mark.parametrize(
    "page, words",
    [
        ("findings", ["results/findings.md"]),
        ("explorer", ["results/explorer/index.html"]),
        ("atlas", ["results/atlas/report.md"]),
        ("report", ["--report", "results/report.html"]),
    ],
)
def test_benchval_pages_are_their_snakemake_targets(page, words):
    command = cli.plan(cli.parser().parse_args([page, "--cores", "4"]))
    assert command[1:] == ["--cores", "4", *words, "--configfile", "config/config.yaml"]
