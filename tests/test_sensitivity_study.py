"""PIQA-RUP sensitivity mode end to end at package level: one config setting -> one variant task per
perturbation -> items from the real files -> scores of 5 tiny random-weight models -> score table ->
the whole analysis, whose revision_sensitivity table has one row per perturbation and metric."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from benchval.testing.analysis_in_one_process import run_analysis
from benchval.plumbing.raw_files import dataset_files
from benchval.evaluation.evaluate import evaluate_task
from benchval.plumbing.config import catalogue_files
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.evaluation.score_table import score_table_from_metrics, task_table_from_metas
from benchval.evaluation.calibrate import calibrated_option_scores
from benchval.scoring.task_scoring import TaskFiles, score_tasks
from benchval.tasks.commonsense import PIQA_RUP_COLUMNS
from benchval.tasks.prepare import prepare_task
from benchval.tasks.variants import add_task_variants
from benchval.testing.tiny import build_tiny_model

pytestmark = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")

SEED = 20261130
MODELS = {
    f"tiny-{i}": {"family": family, "size_b": 0.001 * i}
    for i, family in enumerate(["fam-a", "fam-a", "fam-b", "fam-b", "fam-c"], start=1)
}
STUDY_TASKS = ["winogrande", "winowhat", "piqa", "piqa_rup", "false_beliefs"]


def catalogue_config() -> dict:
    config = {"tasks": {}, "datasets": {}}
    for path in catalogue_files(REPO_ROOT / "config" / "catalogue"):
        loaded = yaml.safe_load(path.read_text())
        config["tasks"].update(loaded.get("tasks") or {})  # not every catalogue file declares tasks
        config["datasets"].update(loaded.get("datasets") or {})
    config["studies"] = {
        "s": {"source": "scored", "models": list(MODELS), "tasks": list(STUDY_TASKS), "sensitivity_variants": True}
    }  # the one setting
    return add_task_variants(config)


def build_task(task: str, config: dict, out_dir) -> dict:
    spec = config["tasks"][task]
    files = {
        key: default_mirror() / data_file.path
        for key, data_file in dataset_files(config["datasets"], spec["dataset"]).items()
    }
    return prepare_task(task, spec, files, {"n_items": 16}, SEED, output=out_dir / f"{task}.parquet")


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    root = tmp_path_factory.mktemp("sensitivity")
    config = catalogue_config()
    tasks = config["studies"]["s"]["tasks"]
    metas = {task: build_task(task, config, root / "tasks") for task in tasks}
    metrics = []
    for seed, model in enumerate(MODELS, start=11):
        folder = build_tiny_model(root / "models" / model, seed)
        files = [
            TaskFiles(
                str(root / "tasks" / f"{t}.parquet"),
                str(root / "scores" / model / f"{t}.parquet"),
                str(root / "shards" / model / t),
            )
            for t in tasks
        ]
        score_tasks(files, folder, {"engine": "fast", "progress": False}, {}, model_name=model)
        for task, task_files in zip(tasks, files):
            items, scores = pd.read_parquet(task_files.items_parquet), pd.read_parquet(task_files.out_parquet)
            option_scores = calibrated_option_scores(scores, metas[task], "per_token")
            metrics.append(evaluate_task(items, option_scores, metas[task], model, "per_token")[0])
    score_table = score_table_from_metrics(pd.concat(metrics, ignore_index=True), MODELS)
    score_table.to_csv(root / "score_table.csv", index=False)
    task_table_from_metas(list(metas.values())).to_csv(root / "tasks.csv", index=False)
    tables = run_analysis(
        root / "score_table.csv",
        root / "tasks.csv",
        {"n_bootstrap": 100, "seed": SEED},
        root / "study",
        make_figures=False,
    )
    return root, config, metas, score_table, tables


def test_one_setting_builds_one_variant_per_perturbation(analysed):
    _, config, metas, _, _ = analysed
    variants = [task for task in config["studies"]["s"]["tasks"] if task not in STUDY_TASKS]
    assert variants == [f"piqa_rup__{column}" for column in PIQA_RUP_COLUMNS]
    for task in variants:
        assert metas[task]["role"] == "cs_variant" and metas[task]["pairs_with"] == "piqa"
        assert metas[task]["options"]["perturbations"] == [task.split("__")[1]] and metas[task]["n_final"] == 16
    filters = json.loads((analysed[0] / "tasks" / "piqa_rup__goal_Leet.filters.json").read_text())
    step = filters["steps"][1]
    assert (step["filter"], step["before"], step["after"]) == ("corrupted_rows", 1838, 1835)
    assert step["removed"] == {"perturbed goal corrupted in the CSV ('#NAME?')": 3}
    assert [row["line"] for row in step["removed_rows"]["first"]] == [681, 998, 1439]


def test_revision_analysis_has_one_row_per_perturbation(analysed):
    root, _, _, score_table, tables = analysed
    table = pd.read_csv(root / "study" / "tables" / "revision_sensitivity.csv")
    table["note"] = table["note"].fillna("")
    assert list(table.variant) == list(tables["revision_sensitivity"].variant)
    for metric in ("accuracy", "macro_f1"):
        rows = table[table.metric == metric]
        assert list(rows.variant_value) == list(PIQA_RUP_COLUMNS)
        assert (rows.original == "piqa").all() and (rows.reworked == "piqa_rup").all()
        assert (rows.n_models_pair == 5).all() and (rows.n_downstream == 1).all()
        wide = score_table[score_table.metric == metric].pivot(index="model", columns="task", values="value")
        for row in rows.itertuples():
            # every statistic is either a number or missing with its reason, never silently absent
            for statistic in ("rho_pair", "diff_OO_minus_RR", "diff_OO_minus_OR", "mean_delta_rho"):
                assert np.isfinite(getattr(row, statistic)) or f"{statistic}: " in row.note, row
            if np.isfinite(row.rho_pair):
                assert row.rho_pair == pytest.approx(stats.spearmanr(wide.piqa, wide[row.variant]).statistic)
    # the variants stay out of the main analysis: OO/RR/OR over the four configured benchmarks only
    groups = tables["revision_groups"]
    assert set(groups.n_original) == {2} and set(groups.n_reworked) == {2}
    assert set(tables["revision_pairs"].reworked) == {"winowhat", "piqa_rup"}
