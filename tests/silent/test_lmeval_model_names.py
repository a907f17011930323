"""Model names imported from lm-eval output are cleaned like every importer's (benchval.analysis.model_names.clean,
issue 42's rule; issue 47's leftover): the name written is the cleaned one, the change is logged, and two names that
are one model by the name rule are an error naming both.

Before: the csv importer cleaned its names, the lm-eval importers wrote the mapping's name as given, so a
zero-width space or a right-to-left override reached the score table, and `m1` and `m<ZWSP>1` were two models.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from benchval.analysis.study_import import StudyImportError
from benchval.lmeval.results import import_lm_eval

OUT = Path(__file__).parents[1] / "lmeval" / "real_runs" / "out"
ZWSP, RLO = "\u200b", "\u202e"


def _study(models: dict, samples: bool, path: Path = OUT) -> dict:
    study = {
        "source": "lm_eval",
        "path": str(path),
        "models": models,
        "tasks": {"arc": {"harness_task": "arc_easy", "role": "downstream"}},
    }
    if samples:
        return {**study, "samples": {"bootstrap": 20}}
    study["tasks"]["arc"]["metrics"] = {"accuracy": "acc,none"}
    return study


@pytest.mark.parametrize("samples", [True, False], ids=["samples", "results JSON"])
def test_an_lmeval_model_name_is_cleaned_and_the_change_logged(samples, caplog):
    models = {"tiny-model": {"name": f"tiny{RLO}-model{ZWSP}", "family": "llama"}}
    with caplog.at_level(logging.INFO):
        scores, _ = import_lm_eval("mine", _study(models, samples), None)
    assert set(scores["model"]) == {"tiny-model"}
    assert "1 model names held control, format or compatibility characters" in caplog.text
    assert "'tiny\\u202e-model\\u200b' -> 'tiny-model'" in caplog.text


@pytest.mark.parametrize("samples", [True, False], ids=["samples", "results JSON"])
def test_two_lmeval_names_of_one_model_are_an_error_naming_both(samples, tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(OUT, runs)
    shutil.copytree(runs / "tiny-model", runs / "other-model")
    for results in (runs / "other-model").glob("results_*.json"):
        results.write_text(results.read_text().replace("pretrained=tiny-model", "pretrained=other-model"))
    models = {
        "tiny-model": {"name": "m1", "family": "llama"},
        "other-model": {"name": f"M{ZWSP}1", "family": "llama"},
    }
    with pytest.raises(
        StudyImportError, match=r"models\.other-model\.name 'M\\u200b1' and models\.tiny-model\.name 'm1'"
    ):
        import_lm_eval("mine", _study(models, samples, runs), None)
