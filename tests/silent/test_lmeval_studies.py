"""lm-eval studies (issue 47, "lm-eval studies"): a task name lm-eval never wrote stops the plan naming the
closest task names the results files hold; a run's accuracy is one number wherever it is read.

Before: `harness_task: hellaswagg` imported with exit 0 and the study silently lost the task; the item reader
(benchval.items.readers.read_lmeval_samples) stopped at the first generate-until samples file of its glob and
counted accuracy by its own argmax, 0.25 on the arc_easy run where the study counts 0.375.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchval.items.readers import read_lmeval_samples
from benchval.lmeval.errors import LmEvalImportError
from benchval.lmeval.importer import lm_eval_study
from tests.silent.conftest import lines_with

OUT = Path(__file__).parents[1] / "lmeval" / "real_runs" / "out"
TASKS = {
    "hellaswag": "hellaswag",
    "arc_easy": "arc_easy",
    "arc_challenge": "arc_challenge",
    "mmlu_abstract_algebra": "mmlu_abstract_algebra",
    "arc_easy_gen": "arc_easy_gen",
}


def _study(tasks: dict[str, str]) -> dict:
    return {
        "source": "lm_eval",
        "path": str(OUT),
        "samples": {"bootstrap": 100},
        "models": {"tiny-model": {"name": "tiny-model", "family": "llama"}},
        "tasks": {task: {"harness_task": harness, "role": "downstream"} for task, harness in tasks.items()},
    }


def test_an_unknown_harness_task_fails_the_import_naming_the_closest(tmp_path):
    with pytest.raises(LmEvalImportError, match=r"tasks\.hs\.harness_task: 'hellaswagg'.*'hellaswag'"):
        lm_eval_study("mine", _study({"hs": "hellaswagg", "arc": "arc_easy"}), None)


def test_an_unknown_harness_task_fails_at_planning_naming_the_closest(dry_run):
    result = dry_run({"studies": {"mine": _study({"hs": "hellaswagg", "arc": "arc_easy"})}}, "study_mine")
    assert result.returncode == 1, result.stderr[-2000:]
    [line] = lines_with(result, "studies.mine.tasks.hs.harness_task")
    assert "'hellaswagg'" in line and "'hellaswag'" in line, line


def test_the_study_and_the_item_reader_give_one_accuracy_per_run():
    scores, _, _ = lm_eval_study("mine", _study(TASKS), None)
    study = scores[scores["metric"] == "accuracy"].set_index("task")["value"].to_dict()
    responses = read_lmeval_samples(sorted(OUT.rglob("samples_*.jsonl")))
    items = responses.groupby("task")["correct"].mean().to_dict()
    assert set(TASKS) <= set(items), sorted(items)
    for task in TASKS:
        assert items[task] == pytest.approx(study[task]), task
