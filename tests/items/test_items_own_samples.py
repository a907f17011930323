"""The same item study on a user's own lm-evaluation-harness samples (``--log_samples``): responses,
the IRT gate and fits, and the study, on simulated models whose criterion follows their ability."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from benchval.items.steps.items_irt import run_irt_steps, run_recovery_step
from benchval.items.steps.items_responses import run_responses_step
from benchval.items.study import run_study_step

SETTINGS = {
    "k": [5, 10, "all"],
    "n_random_draws": 20,
    "n_bootstrap": 200,
    "n_permutations": 0,
    "ci_level": 0.95,
    "fdr_alpha": 0.05,
    "min_models": 6,
    "min_model_coverage": 0.95,
    "irt": {
        "models": ["1PL", "2PL"],
        "selection_model": "2PL",
        "max_iter": 200,
        "recovery": {
            "designs": [{"name": "small", "respondents": 300, "items": 20, "gate": True}],
            "thresholds": {"difficulty": 0.9, "discrimination": 0.5, "theta": 0.8},
        },
    },
}


def write_samples(folder, task, n_items, ability, rng):
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for doc in range(n_items):
        right = rng.random() < 1 / (1 + np.exp(-(ability - rng.normal())))
        target = int(rng.integers(0, 3))
        logliks = [-3.0, -3.0, -3.0]
        logliks[target if right else (target + 1) % 3] = -1.0
        record = {
            "doc_id": doc,
            "target": target,
            "arguments": [["q", f" o{i}"] for i in range(3)],
            "filtered_resps": [[v, False] for v in logliks],
        }
        lines.append(json.dumps(record))
    (folder / f"samples_{task}_2026-01-01T00-00-00.000.jsonl").write_text("\n".join(lines) + "\n")


def test_study_on_own_lmeval_samples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(5)
    abilities = np.linspace(-1.5, 1.5, 12)
    for i, ability in enumerate(abilities):
        write_samples(tmp_path / "runs" / f"fam{i // 3}__m{i}", "bench", 40, ability, rng)
        write_samples(tmp_path / "runs" / f"fam{i // 3}__m{i}", "crit", 40, ability, rng)
    source = {"reader": "lm_eval", "paths": ["runs/*/samples_*.jsonl"]}
    run_responses_step(source, None, "responses.parquet")
    responses = pd.read_parquet("responses.parquet")
    assert responses["model"].nunique() == 12 and set(responses["task"]) == {"bench", "crit"}
    assert "option_loglik" in responses and not responses["correct"].isna().any()
    run_recovery_step(SETTINGS["irt"]["recovery"], 20261130, "recovery.csv")
    run_irt_steps("responses.parquet", ["bench"], SETTINGS, "recovery.csv", "irt")
    headline = {"benchmark": "bench", "criterion": "crit"}
    criteria = {"kind": "tasks", "tasks": ["crit"]}
    study = {"source": "own", "runs": "none", "benchmarks": ["bench"], "criteria": criteria, "headline": headline}
    study["families"] = {f"fam{i // 3}__m{i}": f"fam{i // 3}" for i in range(12)}
    inputs = {"responses": "responses.parquet", "recovery": "recovery.csv", "irt": {"bench": "irt/bench"}}
    run_study_step("own", study, SETTINGS, 20261130, inputs, "out")
    summary = pd.read_csv("out/summary.csv").iloc[0]
    assert summary["n_models"] == 12 and summary["full_rho"] > 0.5  # both tasks follow the simulated ability
    assert abs(summary["contribution_sum"] - summary["full_pearson_r"]) < 1e-9
    curve = pd.read_csv("out/validity_curve.csv", dtype={"k": str})
    assert set(curve["method"]) == {"random", "irt", "anchor", "criterion", "full"}
    folds = pd.read_csv("out/lofo_folds.csv")
    assert len(folds) == 3 * 4  # 3 values of k x 4 families


def test_combining_runs_needs_families():
    from benchval.items.study import _units

    responses = pd.DataFrame({"model": ["a_1", "a_best"], "task": "t", "item_id": "1", "correct": 1.0})
    with pytest.raises(ValueError, match="needs every model's family"):
        _units(responses, {"runs": "mean"})
    units, families = _units(responses.assign(family="a"), {"runs": "mean"})
    assert units == {"a_1": "a", "a_best": "a"} and families == {"a": "a"}
