"""lm-eval studies get the scoreboard and the paired comparisons from their samples (issue 47, "lm-eval
studies"), through the study target, with no second configuration; a run's accuracy is one number wherever it
is read: the study's score table, the scoreboard and the item reader (benchval.items.readers).

Before: the study target of an lm-eval study planned neither (the scoreboard rules took scored studies only),
and `results/studies/<study>/tables/scoreboard.csv` was a target no rule makes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from benchval.items.readers import read_lmeval_samples
from tests.silent.conftest import lines_with

OUT = Path(__file__).parents[1] / "lmeval" / "real_runs" / "out"
TASKS = {"hellaswag": "hellaswag", "arc_easy": "arc_easy", "arc_gen": "arc_easy_gen"}
TABLES = "results/studies/mine/tables"


def two_model_runs(folder: Path) -> Path:
    """The real lm-eval run twice: as `tiny-model` and, in a folder of its own, as `other-model`."""
    shutil.copytree(OUT, folder)
    other = folder / "other-model"
    shutil.copytree(folder / "tiny-model", other)
    for results in other.glob("results_*.json"):
        results.write_text(results.read_text().replace("pretrained=tiny-model", "pretrained=other-model"))
    return folder


def lmeval_study(path: Path) -> dict:
    return {
        "source": "lm_eval",
        "path": str(path),
        "samples": {"bootstrap": 50},
        "models": {
            "tiny-model": {"name": "tiny-model", "family": "llama"},
            "other-model": {"name": "other-model", "family": "qwen"},
        },
        "tasks": {task: {"harness_task": harness, "role": "downstream"} for task, harness in TASKS.items()},
    }


def test_the_study_target_of_an_lmeval_study_plans_its_scoreboard_and_paired_comparisons(dry_run, tmp_path):
    result = dry_run({"studies": {"mine": lmeval_study(two_model_runs(tmp_path / "runs"))}}, "study_mine")
    assert result.returncode == 0, result.stderr[-3000:]
    for path in (f"{TABLES}/scoreboard.csv", f"{TABLES}/paired_comparisons.csv", "mine/figures/scoreboard.png"):
        assert lines_with(result, path), f"{path} is not planned:\n{result.stdout[-3000:]}"


def test_the_study_the_scoreboard_and_the_item_reader_give_one_accuracy(dry_run, tmp_path):
    runs = two_model_runs(tmp_path / "runs")
    overlay = {"studies": {"mine": lmeval_study(runs)}, "analysis": {"n_bootstrap": 100}}
    targets = ["results/studies/mine/score_table.csv", f"{TABLES}/scoreboard.csv", f"{TABLES}/paired_comparisons.csv"]
    result = dry_run(overlay, *targets, dry=False)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    folder = tmp_path / "run"
    scores = pd.read_csv(folder / "results/studies/mine/score_table.csv")
    study = scores[scores["metric"] == "accuracy"].set_index(["model", "task"])["value"]
    board = pd.read_csv(folder / f"{TABLES}/scoreboard.csv")
    scoreboard = board[board["metric"] == "accuracy"].set_index(["model", "task"])["value"]
    items = read_lmeval_samples(sorted((runs / "tiny-model").glob("samples_*.jsonl")))
    reader = items.groupby("task")["correct"].mean()
    assert len(study) == len(scoreboard) == 2 * len(TASKS)
    for (model, task), value in study.items():
        assert scoreboard[(model, task)] == pytest.approx(value), (model, task)
        assert reader[TASKS[task]] == pytest.approx(value), (model, task)
    assert board.loc[board["task"] == "arc_easy", "chance"].iloc[0] == pytest.approx(0.25)  # four options each
    paired = pd.read_csv(folder / f"{TABLES}/paired_comparisons.csv")
    pooled = paired[paired["task"] == "(pooled)"]
    assert len(pooled) == 1 and set(paired["task"]) == {*TASKS, "(pooled)"}
    assert (paired["difference"] == 0).all()  # the same run under two names: no difference


def test_a_task_without_a_chance_level_is_not_counted_below_chance():
    """A generative task (exact match) has no options, so no chance level: the small-study line counts the tasks
    that have one and names the one left out (before: counted as a task not above chance)."""
    from benchval.report.small_study import chance_lines

    board = pd.DataFrame(
        {
            "model": ["m", "m"],
            "task": ["arc", "gen"],
            "metric": ["accuracy", "accuracy"],
            "value": [0.9, 0.5],
            "chance": [0.25, float("nan")],
            "ci_above_chance": [True, None],
        }
    )
    [line] = chance_lines(board, {"gen": "ARC generative"})
    assert "m: accuracy above chance on 1 of 1 tasks" in line and "left out: ARC generative" in line, line
