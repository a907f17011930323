"""A key's edit replans exactly the rules that name it (benchval.jobs.rule_settings) and what follows them,
one rule family at a time, on the default config (docs/workflow.md, "What reruns when").

The finished run is a stand-in, made in seconds: every output of the default target's jobs is created
empty and ``snakemake --touch`` records each job as finished (its params included), as a real run would.
A dry run of the unchanged config then plans nothing; each edit below plans its family's rules and what
follows them, and an edit of a key no rule of the default run names plans nothing.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.snakemake_run import job_counts, run_snakemake, snakemake_command

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror"),
]
TARGET = "results/figures"
# outputs declared with directory(): made as folders
DIRECTORY_OUTPUTS = {"results/figures", "results/tables"}
# what publishes, reports or summarises every study's outputs: any statistic's change reaches them
PUBLISHING = {"publish", "report_figures", "report_tables", "report_config", "findings", "report_scoreboard"}


def _dry_run(workdir: Path, configfile: Path, *args: str) -> str:
    result, _ = run_snakemake([*snakemake_command(workdir, configfile, cores=1), *args, TARGET], timeout=600)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result.stdout + result.stderr


def _planned_outputs(output: str) -> list[str]:
    """Every output file of a dry run's jobs (its ``output:`` lines)."""
    return [path for line in re.findall(r"^\s+output: (.+)$", output, re.MULTILINE) for path in line.split(", ")]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A working directory where the default config's target is finished (outputs empty, metadata recorded)."""
    workdir = tmp_path_factory.mktemp("finished")
    configfile = workdir / "config.yaml"
    configfile.write_text((REPO_ROOT / "config/config.yaml").read_text())
    for path in _planned_outputs(_dry_run(workdir, configfile, "-n")):
        target = workdir / path
        if path in DIRECTORY_OUTPUTS:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch()
    _dry_run(workdir, configfile, "--touch")
    return workdir, configfile


def _edited(finished, name: str, edit) -> Path:
    workdir, configfile = finished
    config = yaml.safe_load(configfile.read_text())
    edit(config)
    path = workdir / f"edit-{name}.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _set(path: str, value):
    """An edit setting the dotted config key ``path`` to ``value``."""

    def edit(config):
        *parents, last = path.split(".")
        node = config
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value

    return edit


# family -> (the edited key, its new value, the rules that name it, the rules that may follow them)
EDITS = {
    "analysis": (
        "analysis.ridge_alpha",
        2.0,
        {"analysis_lofo"},
        {
            "analysis_figure_fig3_lofo_delta_r2",
            "power_planning",
            "specification_robustness",
            "report_specification_robustness",
        },
    ),
    "atlas": ("atlas.forest_top_k", 7, {"atlas_forest", "atlas_explorer"}, set()),
    "items": ("items.fdr_alpha", 0.1, {"items_study"}, {"items_figures", "items_report"}),
    "robustness": ("robustness.power.n_sim", 123, {"power_planning"}, set()),
    "scoring": (
        "scoring.normalisation",
        "sum",
        {"calibrate", "evaluate"},
        {"score_table", "scoreboard", "task_reliability", "specification_robustness", "paired_comparisons"},
    ),
}
# a key no rule names (a job's niceness: planning only)
UNNAMED = {"unrelated": ("local.light_job_niceness", 5)}


@pytest.fixture(scope="module")
def plans(finished):
    workdir, configfile = finished
    runs = {"unchanged": configfile}
    for family, (key, value, *_) in EDITS.items():
        runs[family] = _edited(finished, family, _set(key, value))
    for name, (key, value) in UNNAMED.items():
        runs[name] = _edited(finished, name, _set(key, value))
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(_dry_run, workdir, path, "-n") for name, path in runs.items()}
        planned = {name: job_counts(future.result()) for name, future in futures.items()}
    for name, jobs in planned.items():
        print(f"{name}: {jobs}")
    return planned


def test_the_finished_stand_in_plans_nothing(plans):
    assert plans["unchanged"] == {}


@pytest.mark.parametrize("family", sorted(EDITS))
def test_a_key_edit_replans_its_rules_and_what_follows(plans, family):
    key, _, named, following = EDITS[family]
    rules = {re.sub(r"_model_\w+$", "", rule) for rule in plans[family]}  # score_model_<m> -> score
    print(family, key, sorted(rules))
    assert named <= rules, rules
    assert rules <= named | following | PUBLISHING, rules - named - following - PUBLISHING


def test_a_key_no_rule_names_plans_nothing(plans):
    assert plans["unrelated"] == {}
