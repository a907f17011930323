"""Two lm-eval runs of one model: what the docs say is what the importer does (issue 37).

docs/analysis.md once said that a later file overrides an earlier one, docs/configuration.md that one
model in two result folders is an error naming both. The code does both, by where the runs lie: within
one result folder the results JSON sorted last by name wins (logged); in two folders, an error."""

from __future__ import annotations

import json
import logging

import pytest

from benchval.lmeval.results import import_lm_eval
from benchval.analysis.study_import import StudyImportError
from benchval.plumbing.folders import REPO_ROOT

STUDY = {
    "source": "lm_eval",
    "models": {"org/a": {"name": "a", "family": "fa", "size_b": 1.0}},
    "tasks": {"hellaswag": {"harness_task": "hellaswag", "role": "cs_original", "metrics": {"accuracy": "acc,none"}}},
}


def _write(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"results": {"hellaswag": {"acc,none": value}}, "config": {"model_args": "pretrained=org/a"}})
    )


def test_within_one_folder_the_last_by_name_wins_and_is_logged(tmp_path, caplog):
    _write(tmp_path / "runs/a/results_2024-01-02.json", 0.4)
    _write(tmp_path / "runs/a/results_2024-01-01.json", 0.3)
    with caplog.at_level(logging.INFO):
        scores, _ = import_lm_eval("s", {**STUDY, "path": str(tmp_path / "runs")}, None)
    assert scores["value"].tolist() == [0.4]
    assert "results_2024-01-02.json" in caplog.text


def test_in_two_folders_they_are_an_error_naming_both(tmp_path):
    _write(tmp_path / "runs/first/results_2024-01-01.json", 0.3)
    _write(tmp_path / "runs/second/results_2024-01-02.json", 0.4)
    with pytest.raises(StudyImportError, match=r"two result folders: .*runs/first and .*runs/second"):
        import_lm_eval("s", {**STUDY, "path": str(tmp_path / "runs")}, None)


def test_both_docs_state_the_same_rule():
    for doc in ("docs/analysis.md", "docs/configuration.md"):
        text = " ".join((REPO_ROOT / doc).read_text(encoding="utf-8").split())
        assert "sorted last by name" in text and "error naming both folders" in text, doc
        assert "overrides an earlier one" not in text, doc
