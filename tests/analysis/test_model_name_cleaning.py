"""Model names are cleaned before they are compared or written (benchval.analysis.model_names.clean; issue 42):
Unicode NFKC, control and format characters removed, so visually identical names are one model, and an
import reports every name it changed and every two raw names that became one. A long import logs progress.

Before: a newline, a right-to-left override or a zero-width space stayed in a model name, so ``m1`` and
``m<ZWSP>1`` were two models with no warning."""

import logging

import pytest
from test_importer_strict_cells import STUDY, _write

from benchval.analysis import importers
from benchval.analysis.importers import import_csv
from benchval.analysis.model_names import clean, normalise
from benchval.analysis.study_import import StudyImportError

ZWSP, RLO, BOM = "\u200b", "\u202e", "\ufeff"


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        (f"m{ZWSP}1", "m1"),
        ("llama\n3", "llama3"),
        (f"gpt{RLO}4o", "gpt4o"),
        (f"{BOM}qwen\t", "qwen"),
        ("\uff2c\uff4c\uff41\uff4d\uff41", "Llama"),  # full-width letters
        ("plain-name 2", "plain-name 2"),
    ],
)
def test_clean(raw, cleaned):
    assert clean(raw) == cleaned


def test_names_that_look_the_same_normalise_to_one():
    assert normalise(f"org/m{ZWSP}1") == normalise("org/m1") == "org/m1"
    assert normalise("\uff2c\uff4c\uff41\uff4d\uff41-3") == normalise("llama-3")


def test_two_raw_names_that_clean_to_one_are_an_error_naming_both(tmp_path):
    _write(tmp_path, [["m1", "a", "1", "0.5", "0.4"], [f"m{ZWSP}1", "a", "7", "0.6", "0.5"]])
    with pytest.raises(StudyImportError, match=r"model 'm\\u200b1' appears twice: line 2 and line 3 .*'m1'"):
        import_csv("x", STUDY, tmp_path)


def test_a_cleaned_name_is_written_and_reported(tmp_path, caplog):
    _write(tmp_path, [[f"gpt{RLO}4o", "a", "1", "0.5", "0.4"], ["m2", "a", "7", "0.6", "0.5"]])
    with caplog.at_level(logging.INFO):
        scores, _ = import_csv("x", STUDY, tmp_path)
    assert sorted(set(scores["model"])) == ["gpt4o", "m2"]
    assert "1 model names held control, format or compatibility characters" in caplog.text
    assert "line 2: 'gpt\\u202e4o' -> 'gpt4o'" in caplog.text


def test_a_name_of_invisible_characters_only_is_a_missing_name(tmp_path):
    _write(tmp_path, [[ZWSP, "a", "1", "0.5", "0.4"], ["m2", "a", "7", "0.6", "0.5"]])
    scores, _ = import_csv("x", STUDY, tmp_path)
    assert sorted(set(scores["model"])) == ["m2"]


def test_a_long_import_logs_its_progress(tmp_path, caplog, monkeypatch):
    _write(tmp_path, [["m1", "a", "1", "0.5", "0.4"], ["m2", "a", "7", "0.6", "0.5"]])
    with caplog.at_level(logging.INFO):
        import_csv("x", STUDY, tmp_path)
    assert "tasks imported: " not in caplog.text  # a fast import says nothing more
    monkeypatch.setattr(importers, "PROGRESS_EVERY_S", 0.0)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        import_csv("x", STUDY, tmp_path)
    assert "scores.csv: tasks imported: 1 of 2 done" in caplog.text
    assert "tasks imported: 2 of 2 done" in caplog.text
