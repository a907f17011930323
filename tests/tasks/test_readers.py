"""The raw-file readers (one set, for every adapter) are strict: file and line for a truncated row or an
empty file, newline-only JSONL, a stated blank-line policy."""

from __future__ import annotations

import json

import pytest

from benchval.tasks import rawfiles
from benchval.tasks.base import TaskDataError


def test_jsonl_splits_on_newline_only(tmp_path):
    """U+2028 and U+0085 inside a JSON string are valid JSON, not line breaks; CRLF is accepted."""
    path = tmp_path / "d.jsonl"
    text = json.dumps({"a": "one\u2028two\x85three"}, ensure_ascii=False) + "\r\n" + json.dumps({"a": "x"}) + "\n"
    path.write_text(text, encoding="utf-8", newline="")
    rows = rawfiles.read_jsonl(path)
    assert [(row.line, row.data) for row in rows] == [(1, {"a": "one\u2028two\x85three"}), (2, {"a": "x"})]


def test_jsonl_blank_lines_and_errors(tmp_path):
    """A blank line inside a JSON Lines file is an error (a lost record); trailing blank lines are not."""
    read = rawfiles.read_jsonl
    path = tmp_path / "d.jsonl"
    path.write_text("", encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"d.jsonl, line 1: empty JSON Lines file"):
        read(path)
    path.write_text('{"a": 1}\n\n{"a": 2}\n', encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"d.jsonl, line 2: blank line"):
        read(path)
    path.write_text('{"a": 1}\n{"a": \n', encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"d.jsonl, line 2: invalid JSON"):
        read(path)
    path.write_text('{"a": 1}\n\n\n', encoding="utf-8")  # trailing blank lines are fine
    assert len(read(path)) == 1


def test_csv_rejects_a_truncated_row_and_skips_blank_lines(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('a,b,c\n1,"two\nlines",3\n4,5\n', encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"t.csv, line 4: row has 2 fields, header has 3"):
        rawfiles.read_csv(path)
    path.write_text("a,b,c\n1,2,3\n\n4,5,6\n", encoding="utf-8")  # a blank line is skipped
    assert [(row.line, row.data["c"]) for row in rawfiles.read_csv(path)] == [(2, "3"), (4, "6")]


def test_csv_rejects_an_empty_file_and_a_missing_column(tmp_path):
    path = tmp_path / "e.csv"
    path.write_text("", encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"e.csv, line 1: empty CSV file"):
        rawfiles.read_csv(path)
    path.write_text("\ufeffa,b\n1,2\n", encoding="utf-8")  # a byte-order mark is not part of the header
    assert [row.data for row in rawfiles.read_csv(path, required=["a"])] == [{"a": "1", "b": "2"}]
    with pytest.raises(TaskDataError, match=r"e.csv, line 1: missing column\(s\) \['c'\]"):
        rawfiles.read_csv(path, required=["a", "c"])


def test_empty_json_document(tmp_path):
    path = tmp_path / "e.json"
    path.write_text("  \n", encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"e.json, line 1: empty JSON file"):
        rawfiles.read_json(path)


def test_label_lines_split_on_newline_only(tmp_path):
    path = tmp_path / "labels.lst"
    path.write_text("1\n2\u20283\n", encoding="utf-8")
    assert rawfiles.read_label_lines(path, 2, "data.jsonl") == ["1", "2\u20283"]


def test_label_lines_reject_a_blank_line_and_a_wrong_count(tmp_path):
    path = tmp_path / "labels.lst"
    path.write_text("1\n\n2\n", encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"labels.lst, line 2: empty label line"):
        rawfiles.read_label_lines(path, 3, "data.jsonl")
    with pytest.raises(TaskDataError, match=r"3 labels but the data file data.jsonl has 2 items"):
        rawfiles.read_label_lines(path, 2, "data.jsonl")


def test_row_strings_name_file_line_and_field(tmp_path):
    row = rawfiles.Row(tmp_path / "d.jsonl", 7, {"a": " x ", "n": 3, "z": None})
    assert row.strings("a") == [" x "] and row.text("a") == "x" and row.text("z") == ""
    with pytest.raises(TaskDataError, match=r"d.jsonl, line 7: field 'n' is int, expected text"):
        row.strings("a", "n")
    with pytest.raises(TaskDataError, match=r"d.jsonl, line 7: missing field 'b'"):
        row.strings("b")
