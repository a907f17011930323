"""Data (issue 47, "Data"): a csv study's scores are what the file says on the scale the study states, or the
import stops in one line naming file, line, column and value.

Before: in a `scale: 0.01` study a column given as fractions was divided by 100 like the percentage columns
(exit 0); `1e400` with `value_range: any` imported as inf; a Latin-1 byte raised a UnicodeDecodeError that named
no file; a 0-byte file gave "'model' is not a column" once per column at planning.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchval.analysis.importers import import_csv
from benchval.analysis.study_import import StudyImportError
from benchval.plumbing.planning_checks import study_column_problems
from tests.silent.conftest import csv_study

HEADER = "model,family,size_b,pct_a,pct_b,frac_c\n"


def _write(path: Path, rows: list[str], header: str = HEADER) -> Path:
    path.write_text(header + "".join(f"{row}\n" for row in rows))
    return path


def test_a_fraction_column_in_a_percentage_study_is_refused_naming_both_kinds(tmp_path):
    rows = [f"m{i},f{i},{i + 1},{40 + i}.5,{55 + i}.25,0.{30 + i}" for i in range(6)]
    study = csv_study(_write(tmp_path / "s.csv", rows), {"a": "pct_a", "b": "pct_b", "c": "frac_c"}, scale=0.01)
    with pytest.raises(StudyImportError) as error:
        import_csv("mine", study, None)
    message = str(error.value)
    assert "frac_c" in message and "pct_a" in message and "0.35" in message and "\n" not in message


def test_percentages_given_to_a_fraction_study_are_still_refused(tmp_path):
    rows = [f"m{i},f{i},{i + 1},{40 + i}.5,{55 + i}.25,0.{30 + i}" for i in range(6)]
    study = csv_study(_write(tmp_path / "s.csv", rows), {"a": "pct_a", "c": "frac_c"})
    with pytest.raises(StudyImportError, match="outside"):
        import_csv("mine", study, None)


def test_a_study_of_percentages_and_a_study_of_fractions_import(tmp_path):
    rows = [f"m{i},f{i},{i + 1},{40 + i}.5,{55 + i}.25,0.{30 + i}" for i in range(6)]
    path = _write(tmp_path / "s.csv", rows)
    scores, _ = import_csv("pct", csv_study(path, {"a": "pct_a", "b": "pct_b"}, scale=0.01), None)
    assert scores["value"].between(0.4, 0.61).all()
    scores, _ = import_csv("frac", csv_study(path, {"c": "frac_c"}), None)
    assert scores["value"].between(0.3, 0.36).all()


def test_a_scale_of_percent_on_fractions_only_is_refused(tmp_path):
    rows = [f"m{i},f{i},{i + 1},1,1,0.{30 + i}" for i in range(6)]
    study = csv_study(_write(tmp_path / "s.csv", rows), {"c": "frac_c"}, scale=0.01)
    with pytest.raises(StudyImportError, match=r"scale.*frac_c"):
        import_csv("mine", study, None)


@pytest.mark.parametrize("value_range", ["unit", "any"])
def test_an_infinite_score_is_refused_whatever_the_range(tmp_path, value_range):
    rows = [f"m{i},f{i},{i + 1},{40 + i},1,0.5" for i in range(5)] + ["m9,f9,3,1e400,1,0.5"]
    study = csv_study(_write(tmp_path / "s.csv", rows), {"a": "pct_a"}, value_range=value_range)
    with pytest.raises(StudyImportError, match=r"s\.csv: line 7, column 'pct_a'.*'1e400'.*finite"):
        import_csv("mine", study, None)


def test_an_encoding_error_names_file_and_line(tmp_path):
    path = tmp_path / "latin.csv"
    rows = [f"m{i},f{i},{i + 1},{40 + i},1,0.5" for i in range(4)]
    latin = "caf\xe9,f,1,2,3,0.4\n".encode("latin-1")
    path.write_bytes((HEADER + "".join(f"{row}\n" for row in rows)).encode() + latin)
    study = csv_study(path, {"a": "pct_a"}, value_range="any")
    with pytest.raises(StudyImportError, match=r"latin\.csv: line 6: not UTF-8"):
        import_csv("mine", study, None)
    [problem] = study_column_problems({"mine": study}, Path)
    assert "latin.csv: line 6: not UTF-8" in problem


def test_an_empty_file_says_empty_once(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    study = csv_study(path, {"a": "pct_a", "b": "pct_b"})
    assert study_column_problems({"mine": study}, Path) == [f"studies.mine.path: {path} is empty"]
    with pytest.raises(StudyImportError, match=r"empty\.csv is empty"):
        import_csv("mine", study, None)
