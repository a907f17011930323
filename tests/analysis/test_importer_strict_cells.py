"""The CSV study importer says what it does: a cell that is not a number is an error naming file, line
and column (unless the study declares its missing-value tokens), sizes with unit suffixes parse,
booleans and text are rejected in numeric fields, and a model found twice names both lines."""

import logging

import pytest

from benchval.analysis.study_import import StudyImportError
from benchval.analysis.importers import import_csv, parse_size_b

STUDY = {
    "source": "csv",
    "path": "{mirror}/scores.csv",
    "columns": {"model": "Model", "family": "Fam", "size_b": "Size"},
    "tasks": {"hs": {"column": "HS", "role": "cs_original"}, "wg": {"column": "WG", "role": "downstream"}},
}


def _write(tmp_path, rows: list[list[str]]) -> None:
    lines = ["Model,Fam,Size,HS,WG", *(",".join(row) for row in rows)]
    (tmp_path / "scores.csv").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("cell", ['"0,62"', "n/a", "71%", "True", "false", "nan", "good"])
def test_a_cell_that_is_not_a_number_names_file_line_and_column(tmp_path, cell):
    _write(tmp_path, [["m1", "a", "1", "0.5", "0.4"], ["m2", "a", "7", cell, "0.5"]])
    shown = cell.strip('"')
    with pytest.raises(
        StudyImportError, match=rf"scores\.csv: line 3, column 'HS' \(tasks\.hs\): {shown!r} is not a number"
    ):
        import_csv("x", STUDY, tmp_path)


def test_declared_missing_value_tokens_are_missing_and_counted(tmp_path, caplog):
    _write(tmp_path, [["m1", "a", "1", "0.5", "n/a"], ["m2", "a", "7", "-", "0.5"], ["m3", "b", "3", "", "0.6"]])
    with caplog.at_level(logging.INFO):
        scores, _ = import_csv("x", {**STUDY, "missing_values": ["n/a", "-"]}, tmp_path)
    assert sorted(scores.loc[scores.task == "hs", "model"]) == ["m1"]
    assert sorted(scores.loc[scores.task == "wg", "model"]) == ["m2", "m3"]
    assert "dropped 2 with a missing score" in caplog.text


def test_an_empty_cell_is_missing_without_a_declaration(tmp_path):
    _write(tmp_path, [["m1", "a", "1", "", "0.4"], ["m2", "a", "7", "0.6", "0.5"]])
    scores, _ = import_csv("x", STUDY, tmp_path)
    assert sorted(scores.loc[scores.task == "hs", "model"]) == ["m2"]


@pytest.mark.parametrize(
    ("text", "billions"), [("1.5B", 1.5), ("1.5 b", 1.5), ("500M", 0.5), ("70b", 70.0), ("7", 7.0), ("1.2T", 1200.0)]
)
def test_sizes_with_unit_suffixes_parse(text, billions):
    assert parse_size_b(text, "where") == pytest.approx(billions)


def test_a_size_with_a_suffix_keeps_its_model(tmp_path):
    _write(tmp_path, [["m1", "a", "1.5B", "0.5", "0.4"], ["m2", "a", "500M", "0.6", "0.5"]])
    scores, _ = import_csv("x", STUDY, tmp_path)
    assert scores.groupby("model")["size_b"].first().to_dict() == {"m1": 1.5, "m2": 0.5}


@pytest.mark.parametrize("size", ["True", "big", "1.5 GB"])
def test_a_size_that_is_not_a_number_is_an_error(tmp_path, size):
    _write(tmp_path, [["m1", "a", size, "0.5", "0.4"]])
    with pytest.raises(StudyImportError, match=r"line 2, column 'Size' \(columns\.size_b\)"):
        import_csv("x", STUDY, tmp_path)


def test_a_model_found_twice_names_both_lines(tmp_path):
    _write(tmp_path, [["m1", "a", "1", "0.5", "0.4"], ["m2", "a", "7", "0.6", "0.5"], ["m1", "b", "3", "0.2", "0.1"]])
    with pytest.raises(StudyImportError, match=r"scores\.csv: model 'm1' appears twice: line 2 and line 4"):
        import_csv("x", STUDY, tmp_path)
