"""The whole workflow on tiny local models and a few real items: raw data -> figures, and
'a change to one config value reruns only what lies downstream of it'."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml

from benchval.paths import REPO_ROOT, default_mirror
from benchval.scoring.store import read_scores
from benchval.testing.tiny import TINY_MODELS, TINY_TASKS, tiny_workflow_config

TARGETS = ("results/figures", "results/tables")
pytestmark = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")


def snakemake(workdir, configfile, *args, timeout=900):
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO_ROOT / "Snakefile"),
               "--directory", str(workdir), "--configfile", str(configfile), "--cores", "2", *args]
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)


NOTHING_TO_DO = "Nothing to be done (all requested files are present and up to date)."


def planned_jobs(workdir, configfile) -> dict[str, int]:
    """Rule -> job count of a dry run: {} only where Snakemake says there is nothing to be done; a
    dry run that prints neither that nor a job table (or a table that does not add up) is an error."""
    result = snakemake(workdir, configfile, "-n", *TARGETS)
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    if "Job stats:" not in output:
        assert NOTHING_TO_DO in output, f"dry run printed no job stats:\n{output[-3000:]}"
        return {}
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    jobs = {rule: int(count) for rule, count in re.findall(r"^(\w+)\s+(\d+)$", table, re.MULTILINE)}
    assert jobs and jobs.pop("total") == sum(jobs.values()), table
    return jobs


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("workflow")
    configfile = tiny_workflow_config(workdir, n_items=4, n_bootstrap=100)
    result = snakemake(workdir, configfile, *TARGETS)
    assert result.returncode == 0, result.stderr[-5000:]
    return workdir, configfile


def test_raw_data_to_figures(finished_run):
    workdir, _ = finished_run
    table = pd.read_csv(workdir / "results/studies/tiny/score_table.csv")
    assert set(table["model"]) == set(TINY_MODELS)
    assert set(table["task"]) == set(TINY_TASKS) - {"goldenswag"}
    tasks = pd.read_csv(workdir / "results/studies/tiny/tasks.csv", keep_default_na=False).set_index("task")
    assert tasks.loc["goldenswag", "unavailable"].startswith("needs the Hugging Face Hub")
    assert table["value"].between(0, 1).all()
    assert {"accuracy", "macro_f1"} <= set(table["metric"])
    figures = {path.name for path in (workdir / "results/figures/tiny").iterdir()}
    assert any(name.endswith(".png") for name in figures) and any(name.endswith(".pdf") for name in figures)
    sizes = pd.read_csv(workdir / "results/tables/task_sizes.csv")
    n_final = sizes.set_index("task")["n_final"]
    assert n_final["goldenswag"] == 0 and (n_final.drop("goldenswag").loc[table["task"].unique()] == 4).all()



def test_scoreboard_and_lmeval_stderr(finished_run):
    """The scoreboard reproduces the score table, with intervals and chance; results.json has stderr."""
    workdir, _ = finished_run
    board = pd.read_csv(workdir / "results/tables/tiny/scoreboard.csv")
    assert (workdir / "results/figures/tiny/scoreboard.png").is_file()
    table = pd.read_csv(workdir / "results/studies/tiny/score_table.csv")
    merged = table.merge(board, on=["model", "task", "metric"], suffixes=("", "_board"))
    assert len(merged) == len(table) and (merged["value"] - merged["value_board"]).abs().max() < 1e-12
    scored = board.dropna(subset=["value"])
    assert (scored["ci_low"] <= scored["value"]).all() and (scored["value"] <= scored["ci_high"]).all()
    assert scored["chance"].between(0, 1).all()
    assert board.loc[board["task"] == "goldenswag", "note"].str.startswith("task unavailable").all()
    model = next(iter(TINY_MODELS))
    results = yaml.safe_load((workdir / f"results/lmeval/{model}/hellaswag/results.json").read_text())
    assert isinstance(results["results"]["hellaswag"]["acc_stderr,none"], float)


def test_finished_run_has_nothing_left_to_do(finished_run):
    assert planned_jobs(*finished_run) == {}


def edited_config(finished_run, name, edit):
    workdir, configfile = finished_run
    config = yaml.safe_load(configfile.read_text())
    edit(config)
    path = workdir / name
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return workdir, path


def test_changing_the_normalisation_reruns_only_evaluation_and_analysis(finished_run):
    workdir, path = edited_config(finished_run, "edit-norm.yaml", lambda c: c["scoring"].update(normalisation="sum"))
    jobs = planned_jobs(workdir, path)
    n_pairs = len(TINY_MODELS) * len(TINY_TASKS)  # an unavailable task is evaluated too (missing, with reason)
    assert jobs.get("evaluate") == n_pairs
    assert not {"prepare_model", "prepare_task", "score"} & set(jobs), jobs


def test_changing_one_tasks_sample_size_reruns_only_that_task(finished_run):
    def edit(config):
        config["sample"]["per_task"] = {"hellaswag": 3}

    workdir, path = edited_config(finished_run, "edit-sample.yaml", edit)
    jobs = planned_jobs(workdir, path)
    assert jobs.get("prepare_task") == 1
    assert jobs.get("score") == len(TINY_MODELS) and jobs.get("evaluate") == len(TINY_MODELS)
    assert "prepare_model" not in jobs


def test_per_model_jobs_write_the_same_scores_and_rerun_per_model(finished_run, tmp_path):
    """scoring.jobs: per_model (the default config's) gives the per-task run's scores, one job per model."""
    workdir, path = edited_config(finished_run, "per-model.yaml", lambda c: c["scoring"].update(jobs="per_model"))
    per_model_dir = tmp_path / "per-model"
    per_model_dir.mkdir()
    targets = [f"results/scores/{model}/{task}.parquet" for model in TINY_MODELS for task in TINY_TASKS]
    result = snakemake(per_model_dir, path, *targets)
    assert result.returncode == 0, result.stderr[-5000:]
    ran = re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)", result.stdout + result.stderr, re.MULTILINE)
    assert sorted(name for name in ran if name.startswith("score")) == sorted(
        "score_model_" + re.sub(r"\W", "_", model) for model in TINY_MODELS)
    compared = 0
    for target in targets:
        ours, theirs = read_scores(per_model_dir / target), read_scores(workdir / target)
        assert ours.drop(columns="token_logprobs").equals(theirs.drop(columns="token_logprobs")), target
        for mine, other in zip(ours["token_logprobs"], theirs["token_logprobs"], strict=True):
            np.testing.assert_array_equal(mine, other, err_msg=target)  # the per-token log-probs too
            compared += len(mine)
    assert compared > 0
    config = yaml.safe_load(path.read_text())
    config["sample"]["per_task"] = {"hellaswag": 3}
    edited = per_model_dir / "edit-sample.yaml"
    edited.write_text(yaml.safe_dump(config, sort_keys=False))
    dry = snakemake(per_model_dir, edited, "-n", *targets)
    table = (dry.stdout + dry.stderr).split("Job stats:", 1)[1].split("\n\n", 1)[0]
    jobs = {rule: int(n) for rule, n in re.findall(r"^(\w+)\s+(\d+)$", table, re.MULTILINE) if rule != "total"}
    assert jobs == {"prepare_task": 1, **{"score_model_" + re.sub(r"\W", "_", m): 1 for m in TINY_MODELS}}
