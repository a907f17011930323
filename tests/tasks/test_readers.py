"""The raw-file readers are strict: file and line for a truncated row or an empty file, newline-only JSONL."""

from __future__ import annotations

import json

import pytest

from benchval.tasks import rawfiles
from benchval.tasks.base import TaskDataError
from benchval.tasks.downstream import common


def test_jsonl_splits_on_newline_only(tmp_path):
    """U+2028 and U+0085 inside a JSON string are valid JSON, not line breaks; CRLF is accepted."""
    path = tmp_path / "d.jsonl"
    text = json.dumps({"a": "one\u2028two\x85three"}, ensure_ascii=False) + "\r\n" + json.dumps({"a": "x"}) + "\n"
    path.write_text(text, encoding="utf-8", newline="")
    assert rawfiles.read_jsonl(path) == [(1, {"a": "one\u2028two\x85three"}), (2, {"a": "x"})]
    rows = list(common.read_jsonl(path))
    assert [(row.line, row.data) for row in rows] == [(1, {"a": "one\u2028two\x85three"}), (2, {"a": "x"})]


@pytest.mark.parametrize("read", [rawfiles.read_jsonl, lambda path: list(common.read_jsonl(path))])
def test_jsonl_readers_agree_on_errors(tmp_path, read):
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


def test_downstream_csv_rejects_a_truncated_row(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text('a,b,c\n1,"two\nlines",3\n4,5\n', encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"t.csv, line 4: row has 2 fields, header has 3"):
        list(common.read_csv(path))
    path.write_text('a,b,c\n1,2,3\n\n4,5,6\n', encoding="utf-8")  # a blank line is skipped
    assert [(row.line, row.data["c"]) for row in common.read_csv(path)] == [(2, "3"), (4, "6")]


def test_csv_readers_reject_an_empty_file(tmp_path):
    path = tmp_path / "e.csv"
    path.write_text("", encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"e.csv, line 1: empty CSV file"):
        list(common.read_csv(path))
    with pytest.raises(TaskDataError, match=r"e.csv, line 1: empty CSV file"):
        rawfiles.read_csv_rows(path)


def test_empty_json_document(tmp_path):
    path = tmp_path / "e.json"
    path.write_text("  \n", encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"e.json, line 1: empty JSON file"):
        common.read_json(path)


def test_label_lines_split_on_newline_only(tmp_path):
    path = tmp_path / "labels.lst"
    path.write_text("1\n2\u20283\n", encoding="utf-8")
    assert rawfiles.read_label_lines(path, 2, "data.jsonl") == ["1", "2\u20283"]
