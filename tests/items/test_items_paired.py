"""Rule items_paired's package call (benchval.items.steps.items_paired): on a hand-made responses parquet with a
known separable and a known inseparable adjacent pair, and nlu_test_sets' one-checkpoint-per-encoder rule."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml
from statsmodels.stats.contingency_tables import mcnemar

from benchval.items.steps.items_paired import one_checkpoint, run_items_paired
from benchval.items.readers import write_responses
from benchval.plumbing.folders import REPO_ROOT

SETTINGS = {"n_bootstrap": 500, "ci_level": 0.95}


def answers(model: str, correct, task: str = "t1", source: str = "toy", **extra) -> pd.DataFrame:
    correct = np.asarray(correct, dtype=float)
    rows = {"source": source, "task": task, "item_id": [f"{task}_{i}" for i in range(len(correct))]}
    return pd.DataFrame({**rows, "model": model, "correct": correct, **extra})


def toy_responses() -> pd.DataFrame:
    """200 items of t1: A beats B on 70 items and loses on 10 (separable); B beats C on 12 and loses on 8
    (B is 2 points ahead, McNemar p = 0.50: inseparable). t2: A and C only (a pair for the pooled rows)."""
    b = np.r_[np.ones(100), np.zeros(100)]
    a = b.copy()
    a[100:170] = 1  # A right where B is wrong: 70
    a[:10] = 0  # A wrong where B is right: 10
    c = b.copy()
    c[20:32] = 0  # C wrong where B is right: 12
    c[150:158] = 1  # C right where B is wrong: 8
    t2 = np.r_[np.ones(30), np.zeros(30)]
    return pd.concat(
        [answers("A", a), answers("B", b), answers("C", c), answers("A", t2, "t2"), answers("C", 1 - t2, "t2")],
        ignore_index=True,
    )


def run(tmp_path, frame, comparison) -> tuple[pd.DataFrame, pd.DataFrame]:
    write_responses(frame, tmp_path / "responses.parquet")
    paired, ranks = tmp_path / "paired_comparisons.csv", tmp_path / "rank_resolution.csv"
    run_items_paired("toy", comparison, SETTINGS, 7, str(tmp_path / "responses.parquet"), paired, ranks)
    return pd.read_csv(paired, keep_default_na=False), pd.read_csv(ranks, keep_default_na=False)


def test_known_separable_and_inseparable_neighbours(tmp_path):
    paired, ranks = run(tmp_path, toy_responses(), {"reader": "lm_eval", "pairs": [["C", "A"]]})
    t1 = ranks[ranks["task"] == "t1"].set_index("model")
    assert list(t1.sort_values("rank").index) == ["A", "B", "C"]
    # A-B separable; B-C not, although B's accuracy is higher (a strict order would print 1, 2, 3)
    assert list(t1.loc[["A", "B"], "separable_from_next"]) == ["True", "False"]
    assert list(t1.loc[["A", "B", "C"], "rank_range"]) == ["1", "2-3", "2-3"]
    rows = paired.set_index(["level", "task", "model_a", "model_b"])
    ab, bc = rows.loc[("task", "t1", "A", "B")], rows.loc[("task", "t1", "B", "C")]
    assert (ab["pair_kind"], ab["a_only_correct"], ab["b_only_correct"]) == ("adjacent", 70, 10)
    assert ab["difference"] == pytest.approx(0.30) and ab["ci_low"] > 0
    assert bc["difference"] == pytest.approx(0.02) and bc["ci_low"] < 0 < bc["ci_high"]
    for row, table in ((ab, [[0, 70], [10, 0]]), (bc, [[0, 12], [8, 0]])):
        assert row["p_mcnemar_exact"] == pytest.approx(mcnemar(table, exact=True).pvalue, rel=1e-12)
    # the configured pair keeps its order on every task both answered, and pooled over the two tasks
    configured = paired[paired["pair_kind"].str.contains("configured")]
    assert set(zip(configured["level"], configured["task"])) == {("task", "t1"), ("task", "t2"), ("pooled", "(pooled)")}
    assert set(zip(configured["model_a"], configured["model_b"])) == {("C", "A")}
    pooled = configured.set_index("level").loc["pooled"]
    assert (pooled["n_items"], pooled["a_only_correct"], pooled["b_only_correct"]) == (260, 10 + 30, 74 + 30)
    assert set(paired["category"]) == {""}  # no category column: task and pooled levels only


def test_categories_and_an_unknown_configured_model(tmp_path):
    frame = toy_responses()
    frame["category"] = np.where(frame["item_id"].str.split("_").str[1].astype(int) % 2 == 0, "even", "odd")
    paired, ranks = run(tmp_path, frame, {"reader": "mmlu_pro_outputs", "pairs": []})
    assert set(zip(ranks["level"], ranks["category"])) >= {("task", ""), ("category", "even"), ("category", "odd")}
    even = paired[(paired["level"] == "category") & (paired["task"] == "t1") & (paired["category"] == "even")]
    assert even["n_items"].tolist() == [100, 100]
    with pytest.raises(ValueError, match=r"items.paired.pairs.toy: model\(s\) \['D'\] not in the responses"):
        run(tmp_path, toy_responses(), {"reader": "lm_eval", "pairs": [["A", "D"]]})


def nlu_runs() -> pd.DataFrame:
    """Two encoders x two checkpoints on 40 items: by the _best runs enc1 beats enc2 (30 vs 10 right); by
    the _50 runs enc2 beats enc1 (40 vs 0), so the mean over checkpoints would rank them the other way."""
    right = lambda k: np.r_[np.ones(k), np.zeros(40 - k)]  # noqa: E731
    runs = {"enc1_best": right(30), "enc2_best": right(10), "enc1_50": right(0), "enc2_50": right(40)}
    frame = pd.concat([answers(run, c, "hellaswag", "nlu_test_sets") for run, c in runs.items()], ignore_index=True)
    return frame.assign(family=frame["model"].str.rsplit("_", n=1).str[0])


def test_one_checkpoint_per_encoder(tmp_path):
    paired, ranks = run(tmp_path, nlu_runs(), {"reader": "nlu_test_sets", "pairs": [], "checkpoint": "best"})
    # the encoders are the models (not the four runs), answering as their _best checkpoint: enc1 first
    assert ranks.sort_values("rank")["model"].tolist() == ["enc1", "enc2"]
    assert ranks.set_index("model")["accuracy"].to_dict() == {"enc1": 0.75, "enc2": 0.25}
    task = paired[paired["level"] == "task"].iloc[0]
    assert (task["model_a"], task["model_b"], task["n_items"], task["a_only_correct"]) == ("enc1", "enc2", 40, 20)
    fifty = one_checkpoint(nlu_runs(), "50")
    assert fifty.groupby("model")["correct"].mean().to_dict() == {"enc1": 0.0, "enc2": 1.0}
    with pytest.raises(ValueError, match="items.paired.checkpoint: 'last' is not one of"):
        one_checkpoint(nlu_runs(), "last")
    with pytest.raises(ValueError, match="no run ends in _25"):
        one_checkpoint(nlu_runs(), "25")


def test_rule_items_paired_writes_both_tables(tmp_path):
    """The rule itself (Snakemake, workflow/rules/items.smk) on a hand-made responses parquet."""
    config = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    config["items"]["sources"] = {"toy": {"reader": "lm_eval", "paths": []}}
    config["items"]["studies"] = {}
    config["items"]["paired"] = {"pairs": {"toy": [["C", "A"]]}}
    config["items"]["n_bootstrap"] = 500
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    (tmp_path / "config").symlink_to(REPO_ROOT / "config")
    (tmp_path / "Snakefile").write_text(f'configfile: "config.yaml"\ninclude: "{REPO_ROOT}/workflow/rules/items.smk"\n')
    write_responses(toy_responses(), tmp_path / "results/items/toy/responses.parquet")
    target = "results/items/toy/paired_comparisons.csv"
    command = [sys.executable, "-m", "snakemake", "--cores", "1", target]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    ranks = pd.read_csv(tmp_path / "results/items/toy/rank_resolution.csv", keep_default_na=False)
    t1 = ranks[ranks["task"] == "t1"].set_index("model")
    assert list(t1.loc[["A", "B", "C"], "rank_range"]) == ["1", "2-3", "2-3"]
    paired = pd.read_csv(tmp_path / target, keep_default_na=False)
    assert (paired["n_boot"] == 500).all() and set(paired["source"]) == {"toy"}
    assert ("C", "A", "configured") in set(zip(paired["model_a"], paired["model_b"], paired["pair_kind"]))
    assert "task t1 : 1 of 2 adjacent pairs separable" in (tmp_path / "logs/items_paired/toy.log").read_text()
