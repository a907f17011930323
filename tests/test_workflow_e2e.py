"""The whole workflow on tiny local models and a few real items: raw data -> figures, and
'a change to one config value reruns only what lies downstream of it'.

The finished run mixes both scoring job layouts: scoring.jobs per_model (score_model_<model>,
calibrate_model_<model>, evaluate_model_<model>) and tiny-a1 one job per (model, task) (score,
calibrate, evaluate). A second run scores tiny-a1 per model and tiny-b1 per task, so that a model of
each tokenizer kind (tiny-a1 adds no BOS, tiny-b1 does) is scored in both layouts. The dry runs of
the edited configs start two at a time in the background as soon as the run has finished.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
import yaml

from benchval.analysis.study_import import StudyImportError
from benchval.plumbing.config import merged_config
from benchval.lmeval.importer import lm_eval_study
from benchval.lmeval.own_output import own_output_study
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.scoring.store import read_scores
from benchval.testing.snakemake_run import (
    finished_rules,
    job_counts,
    offline_env,
    run_snakemake,
    snakemake_command,
)
from benchval.testing.tiny import TINY_MODELS, TINY_TASKS, tiny_workflow_config

TARGETS = ("results/figures", "results/tables")
PER_TASK_MODEL = "tiny-a1"  # scored per (model, task) in the finished run, the others per model
OTHER_MODELS = [model for model in TINY_MODELS if model != PER_TASK_MODEL]
SECOND_PER_TASK_MODEL = "tiny-b1"  # scored per (model, task) in the second run, the others per model
# what the preparation jobs wrote (the model lock file included: config model_lock, relative to the
# working directory) and Snakemake's record of each job (params, code, inputs) that wrote it
PREPARED = ("results/tasks", "resources/models", "config/models.lock.yaml", ".snakemake/metadata")
pytestmark = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")


def snakemake(workdir, configfile, *args, timeout=900):
    return run_snakemake([*snakemake_command(workdir, configfile, cores=2), *args], timeout=timeout)[0]


def planned_jobs(workdir, configfile) -> dict[str, int]:
    """Rule -> job count of a dry run: {} only where Snakemake says there is nothing to be done; a
    dry run that prints neither that nor a job table (or a table that does not add up) is an error."""
    result = snakemake(workdir, configfile, "-n", *TARGETS)
    assert result.returncode == 0, result.stderr[-3000:]
    return job_counts(result.stdout + result.stderr)


def model_rule(prefix, model):
    """The name of a per-model rule, e.g. score_model_tiny_a1."""
    return f"{prefix}_model_" + re.sub(r"\W", "_", model)


def with_layout(configfile, per_task_model, name):
    """The config with scoring.jobs per_model, but per_task for ``per_task_model`` (only)."""
    config = yaml.safe_load(configfile.read_text())
    config["scoring"]["jobs"] = "per_model"
    for model, entry in config["models"].items():
        entry.pop("scoring_jobs", None)
        if model == per_task_model:
            entry["scoring_jobs"] = "per_task"
    path = configfile.with_name(name)
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("workflow")
    configfile = tiny_workflow_config(workdir, n_items=4, n_bootstrap=100)
    configfile = with_layout(configfile, PER_TASK_MODEL, "mixed-config.yaml")
    result = snakemake(workdir, configfile, *TARGETS)
    assert result.returncode == 0, result.stderr[-5000:]
    return workdir, configfile


@pytest.fixture(scope="module")
def background():
    """Two dry runs at a time beside the tests (each is one mostly single-threaded process)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield pool


@pytest.fixture(scope="module")
def plans(finished_run, background, tmp_path_factory):
    """Name -> future of the planned jobs of each edit the tests below check, all started at once."""
    workdir, configfile = finished_run
    edits = {
        "unchanged": None,
        "normalisation": lambda c: c["scoring"].update(normalisation="sum"),
        "sample": lambda c: c["sample"].update(per_task={"hellaswag": 3}),
        "ridge": lambda c: c["analysis"].update(ridge_alpha=2.0),
        "fdr": lambda c: c["analysis"]["fdr"].update(alpha=0.1),
        "label": _relabel,
        "reordered": _reverse_keys,
        "placement": _offload_weights,
    }
    futures = {}
    for name, edit in edits.items():
        path = configfile if edit is None else edited_config(finished_run, f"edit-{name}.yaml", edit)
        futures[name] = background.submit(planned_jobs, workdir, path)
    checkout = tmp_path_factory.mktemp("moved") / "checkout"
    futures["moved"] = background.submit(_moved_checkout_plans, workdir, configfile, checkout)
    futures["fresh_clone"] = background.submit(
        _fresh_clone_plans, workdir, configfile, tmp_path_factory.mktemp("clone"), tmp_path_factory.mktemp("moved")
    )
    checkout = tmp_path_factory.mktemp("figure-edit") / "checkout"
    futures["figure"] = background.submit(_edited_checkout_plans, workdir, configfile, checkout, FIGURE_4_MODULE)
    return futures


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


def test_lmeval_output_reimported_gives_the_score_table_exactly(finished_run, tmp_path):
    """Round trip: results/lmeval/ read back as a `source: lm_eval` study (benchval.lmeval) gives the
    scored study's metrics exactly, on every task and model; without the token counts and N/A priors
    that results/lmeval/ carries beyond lm-eval's fields, the import fails naming file and line."""
    workdir, configfile = finished_run
    study = own_output_study(merged_config(configfile), "tiny", workdir / "results/lmeval")
    scores, _, _ = lm_eval_study("roundtrip", study, None)
    table = pd.read_csv(workdir / "results/studies/tiny/score_table.csv")
    merged = table.merge(scores, on=["model", "task", "metric"], how="outer", suffixes=("", "_lmeval"))
    assert len(merged) == len(table) == len(scores)
    assert (merged["value"] == merged["value_lmeval"]).all()
    assert (merged["family"] == merged["family_lmeval"]).all() and (merged["size_b"] == merged["size_b_lmeval"]).all()
    assert set(scores["task"]) == set(TINY_TASKS) - {"goldenswag"}  # unavailable here: skipped, said in the log
    stripped = shutil.copytree(workdir / "results/lmeval", tmp_path / "lmeval")
    samples = stripped / PER_TASK_MODEL / "hellaswag/samples.jsonl"
    records = [json.loads(line) for line in samples.read_text().splitlines()]
    samples.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "benchval"}) + "\n" for r in records))
    with pytest.raises(StudyImportError, match=r"hellaswag/samples.jsonl: line 1: no n_tokens for per_token"):
        lm_eval_study("roundtrip", {**study, "path": str(stripped)}, None)


def test_finished_run_has_nothing_left_to_do(plans):
    assert plans["unchanged"].result() == {}


def edited_config(finished_run, name, edit):
    """The finished run's config with ``edit`` applied, as a file in its working directory."""
    workdir, configfile = finished_run
    config = yaml.safe_load(configfile.read_text())
    edit(config)
    path = workdir / name
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def test_changing_the_normalisation_reruns_only_evaluation_and_analysis(plans):
    jobs = plans["normalisation"].result()
    # per (model, task) for PER_TASK_MODEL (an unavailable task is evaluated too: missing, with reason)
    assert jobs.get("evaluate") == len(TINY_TASKS)
    assert all(jobs.get(model_rule("evaluate", model)) == 1 for model in OTHER_MODELS), jobs
    scoring = {"score", *(model_rule("score", model) for model in TINY_MODELS)}
    assert not ({"prepare_model", "prepare_task"} | scoring) & set(jobs), jobs


def test_changing_one_tasks_sample_size_reruns_only_that_task(plans):
    jobs = plans["sample"].result()
    assert jobs.get("prepare_task") == 1
    # one job per model: PER_TASK_MODEL's job for that task, each other model's one job
    assert jobs.get("score") == 1 and jobs.get("evaluate") == 1, jobs
    for model in OTHER_MODELS:
        assert jobs.get(model_rule("score", model)) == 1 and jobs.get(model_rule("evaluate", model)) == 1, jobs
    assert "prepare_model" not in jobs


def test_per_model_jobs_write_the_same_scores_and_rerun_per_model(finished_run, tmp_path_factory):
    """scoring.jobs: per_model (the default config's) gives the per-task layout's scores, one job per
    model: tiny-a1 (no BOS) was scored per task in the finished run and is scored per model here,
    tiny-b1 (BOS) the other way round; tiny-a2 (tiny-a1's kind) is scored per model in both runs.
    Both layouts score the same prepared tasks and models: the finished run's, copied with their
    metadata (a layout changes no preparation job), so only the scoring jobs run here."""
    workdir, configfile = finished_run
    path = with_layout(configfile, SECOND_PER_TASK_MODEL, "second-layout.yaml")
    per_model_dir = tmp_path_factory.mktemp("per-model")  # as deep as the finished run: same mirror paths
    for prepared in PREPARED:
        (per_model_dir / prepared).parent.mkdir(parents=True, exist_ok=True)
        copy = shutil.copytree if (workdir / prepared).is_dir() else shutil.copy2
        copy(workdir / prepared, per_model_dir / prepared)
    targets = [f"results/scores/{model}/{task}.parquet" for model in TINY_MODELS for task in TINY_TASKS]
    result = snakemake(per_model_dir, path, *targets)
    assert result.returncode == 0, result.stderr[-5000:]
    ran = finished_rules(result.stdout + result.stderr)
    assert not {"prepare_model", "prepare_task"} & set(ran), ran
    per_model = [model_rule("score", model) for model in TINY_MODELS if model != SECOND_PER_TASK_MODEL]
    assert sorted(name for name in ran if name.startswith("score")) == sorted(per_model + ["score"] * len(TINY_TASKS))
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
    assert job_counts(dry.stdout + dry.stderr) == {"prepare_task": 1, "score": 1, **dict.fromkeys(per_model, 1)}
    config = yaml.safe_load(path.read_text())
    _relabel(config)
    relabelled = per_model_dir / "edit-label.yaml"
    relabelled.write_text(yaml.safe_dump(config, sort_keys=False))
    dry = snakemake(per_model_dir, relabelled, "-n", *targets)
    assert dry.returncode == 0 and "Job stats:" not in dry.stdout + dry.stderr, (dry.stdout + dry.stderr)[-3000:]


def test_calibrated_option_scores_are_their_own_step(finished_run):
    workdir, _ = finished_run
    calibrated = pd.read_parquet(workdir / "results/calibrated/tiny-a1/hellaswag.parquet")
    assert list(calibrated.columns) == ["item_id", "option_index", "score"] and len(calibrated) > 0


# What publishes an analysis output (report_config shows the config, so any config edit reruns it; the
# findings page reads the FDR-adjusted tables and the specification grid).
PUBLISHING = {"publish", "report_figures", "report_tables", "report_config", "findings"}
# the specification grid recomputes every statistic, and power planning reads alpha, min_models and
# ridge_alpha: an edit of the analysis settings reruns them (workflow/rules/robustness.smk)
ROBUSTNESS = {"specification_robustness", "report_specification_robustness", "power_planning"}


def _analysis_jobs(jobs):
    return {rule for rule in jobs if rule.startswith("analysis_")}


def test_editing_ridge_alpha_plans_only_lofo_and_figure_3(plans):
    jobs = plans["ridge"].result()
    assert _analysis_jobs(jobs) == {"analysis_lofo", "analysis_figure_fig3_lofo_delta_r2"}, jobs
    assert set(jobs) - _analysis_jobs(jobs) <= PUBLISHING | ROBUSTNESS, jobs


def test_editing_fdr_plans_only_fdr_and_the_starred_figures(plans):
    jobs = plans["fdr"].result()
    assert _analysis_jobs(jobs) == {
        "analysis_fdr",
        "analysis_figure_fig1_cs_correlations",
        "analysis_figure_fig2_cs_downstream",
    }, jobs
    assert set(jobs) - _analysis_jobs(jobs) <= PUBLISHING | ROBUSTNESS, jobs


def _relabel(config):
    """Tasks are declared in their folders (src/benchval/tasks/catalogue/<task>/task.yaml); a --configfile entry
    merges into them."""
    config.setdefault("tasks", {}).setdefault("hellaswag", {})["label"] = "HellaSwag (renamed)"


def test_editing_a_task_label_reruns_no_model_job(plans):
    """Both layouts here (the finished run mixes them); again in
    test_per_model_jobs_write_the_same_scores_and_rerun_per_model."""
    jobs = plans["label"].result()
    assert not any(
        rule == "score" or rule.startswith(("score_model_", "prepare", "calibrate", "evaluate")) for rule in jobs
    ), jobs
    assert "score_table" in jobs, jobs


def _offload_weights(config):
    """A placement key (registry.PLACEMENT_KEYS) on every model: the scoring jobs read it, as a
    derived param beside their rerun trigger."""
    for entry in config["models"].values():
        entry["cpu_offload_gb"] = 2


def test_editing_a_placement_key_reruns_no_model_job(plans):
    jobs = plans["placement"].result()
    print("planned after editing cpu_offload_gb:", jobs)
    assert not any(
        rule == "score" or rule.startswith(("score_model_", "prepare", "calibrate", "evaluate")) for rule in jobs
    ), jobs


def _reverse_keys(config):
    """Every mapping of the config with its keys in reverse order (in place at the top level)."""

    def reverse(value):
        if isinstance(value, dict):
            return {key: reverse(value[key]) for key in reversed(list(value))}
        return value

    reversed_config = reverse(config)
    config.clear()
    config.update(reversed_config)


def test_reordering_config_keys_reruns_nothing(plans):
    assert plans["reordered"].result() == {}


def _copied_checkout(destination, keep_mtimes=True):
    """The tracked files of this checkout (workflow/, config/, src/), mtimes kept (or, as a fresh clone
    has them, new)."""
    import shutil

    destination.mkdir(parents=True)
    copy = shutil.copy2 if keep_mtimes else shutil.copy
    for name in ("workflow", "config", "src"):
        shutil.copytree(
            REPO_ROOT / name, destination / name, ignore=shutil.ignore_patterns("__pycache__"), copy_function=copy
        )
    return destination


def _fresh_clone_plans(workdir, configfile, root, moved):
    """Planned jobs of the finished run moved (mtimes kept) to ``moved``, a folder as deep as ``workdir``
    (so its mirror files keep their relative paths, as a clone beside ../shared has them), run with a
    fresh copy of this checkout (every file's mtime new, as in a fresh clone of the same commit)."""
    import shutil

    checkout = _copied_checkout(root / "elsewhere" / "deeper" / "clone", keep_mtimes=False)
    moved = Path(shutil.copytree(workdir, moved, symlinks=True, dirs_exist_ok=True))
    inside = Path(configfile).is_relative_to(workdir)
    moved_config = moved / Path(configfile).relative_to(workdir) if inside else configfile
    command = [*snakemake_command(moved, moved_config, cores=2, snakefile=checkout / "workflow" / "Snakefile")]
    result, _ = run_snakemake(
        [*command, "-n", *TARGETS], env=offline_env(PYTHONPATH=str(checkout / "src")), timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    reasons = {line.strip()[:300] for line in output.splitlines() if line.strip().startswith("reason:")}
    return job_counts(output), sorted(r for r in reasons if "updated by another job" not in r)[:10]


def _planned_with_checkout(workdir, configfile, checkout):
    command = [
        *snakemake_command(workdir, configfile, cores=2, snakefile=checkout / "workflow" / "Snakefile"),
        "-n",
        *TARGETS,
    ]
    result, _ = run_snakemake(command, env=offline_env(PYTHONPATH=str(checkout / "src")), timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return job_counts(result.stdout + result.stderr)


def _edit(checkout, module):
    path = checkout / module
    path.write_text(path.read_text() + "\n# an edit\n")


def _moved_checkout_plans(workdir, configfile, checkout):
    """Planned jobs with a copy of this checkout: as copied, then after an edit to lofo.py."""
    _copied_checkout(checkout)
    moved = _planned_with_checkout(workdir, configfile, checkout)
    _edit(checkout, "src/benchval/analysis/lofo.py")
    return moved, _planned_with_checkout(workdir, configfile, checkout)


def _edited_checkout_plans(workdir, configfile, checkout, module):
    """Planned jobs with a copy of this checkout in which ``module`` is edited."""
    _copied_checkout(checkout)
    _edit(checkout, module)
    return _planned_with_checkout(workdir, configfile, checkout)


def test_moved_checkout_reruns_nothing_and_a_lofo_edit_reruns_only_lofo(plans):
    moved, jobs = plans["moved"].result()
    assert moved == {}
    assert _analysis_jobs(jobs) == {"analysis_lofo", "analysis_figure_fig3_lofo_delta_r2"}, jobs
    assert set(jobs) - _analysis_jobs(jobs) <= PUBLISHING | ROBUSTNESS, jobs


def test_a_finished_run_moved_to_a_fresh_clone_plans_nothing(plans):
    """Issue 37: a fresh clone gives every script and repository file a new mtime; Snakemake's code trigger
    (script newer than its outputs) and the mtimes of repository inputs (config/atlas/, committed judge
    tables) replanned every job. Code reruns through the params' content hashes instead (workflow profile
    workflow/profiles/default: no `code` trigger), repository inputs are ancient with their content a param.
    Mirror files are inputs by their path relative to the working directory: a run moved to another depth
    relative to the mirror replans the jobs that read them (docs/workflow.md)."""
    jobs, reasons = plans["fresh_clone"].result()
    assert jobs == {}, reasons


FIGURE_4_MODULE = "src/benchval/analysis/figures/fig4_axis_tests.py"


def test_editing_one_figures_module_plans_only_that_figure(plans):
    """Each figure has its own module and script (benchval.analysis.figures): an edit to Figure 4's
    module redraws Figure 4 and what publishes it, and no other figure or statistic."""
    jobs = plans["figure"].result()
    print("plan after editing", FIGURE_4_MODULE, jobs)
    assert _analysis_jobs(jobs) == {"analysis_figure_fig4_axis_tests"}, jobs
    assert jobs["analysis_figure_fig4_axis_tests"] == 1, jobs
    assert set(jobs) - _analysis_jobs(jobs) <= {"report_figures", "publish"}, jobs


def test_too_few_models_figure_and_the_readme_report_command(finished_run):
    workdir, configfile = finished_run
    log = (workdir / "logs/analysis_figure_fig1_cs_correlations/tiny.log").read_text()
    assert (workdir / "results/figures/tiny/fig1_cs_correlations.png").exists(), log
    report = snakemake(workdir, configfile, "--report", "results/report.html")
    assert report.returncode == 0, report.stderr[-3000:]
    assert (workdir / "results/report.html").stat().st_size > 0


def test_a_deleted_published_file_is_rebuilt_by_the_readme_command(finished_run):
    """Last in this file: it changes the finished run (the dry runs of `plans` have all been awaited)."""
    workdir, configfile = finished_run
    figure, table = workdir / "results/figures/tiny/scoreboard.png", workdir / "results/tables/tiny/scoreboard.csv"
    figure.unlink()
    table.unlink()
    assert planned_jobs(workdir, configfile) == {"publish": 1}
    result = snakemake(workdir, configfile, "results/figures")  # the README's command
    assert result.returncode == 0, result.stderr[-3000:]
    assert figure.is_file() and table.is_file()
    assert planned_jobs(workdir, configfile) == {}
