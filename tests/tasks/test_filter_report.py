"""The filter report's traceability (removed and changed rows by file and line or id) and label-share check."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchval.tasks.base import LISTED_ROWS, FilterReport, Item, default_source, label_shares, share_shift, source
from benchval.tasks.rawfiles import Row


def test_source_and_default_source():
    assert source("/mirror/x/data.jsonl", 12) == {"file": "data.jsonl", "line": 12}
    assert source(id=7, position=3) == {"id": "7", "position": 3}
    row = Row(Path("/m/a.csv"), 5, {})
    item = Item("t-1", "c", [" a"], 0, 9)
    assert default_source(row) == {"file": "a.csv", "line": 5}
    assert default_source(item) == {"line": 9, "id": "t-1"}
    assert default_source(("key", row)) == {"file": "a.csv", "line": 5}
    assert default_source((item, "ok")) == {"line": 9, "id": "t-1"}
    assert default_source({"some": "dict"}) is None


def test_removed_rows_first_fifty_and_the_count():
    rows = [Row(Path("d.jsonl"), line, {}) for line in range(1, 121)]
    report = FilterReport("t")
    kept = report.apply("even_lines", rows, lambda row: "odd" if row.line % 2 else None)
    step = report.to_dict()["steps"][0]
    assert len(kept) == 60 and step["removed"] == {"odd": 60}
    assert step["removed_rows"]["count"] == 60 and len(step["removed_rows"]["first"]) == LISTED_ROWS == 50
    assert step["removed_rows"]["first"][:2] == [
        {"file": "d.jsonl", "line": 1, "reason": "odd"},
        {"file": "d.jsonl", "line": 3, "reason": "odd"},
    ]
    # a caller's own locator; a shape nobody can locate is named by its position in the step's input
    report.apply(
        "by_id",
        [{"k": "a"}, {"k": "b"}],
        lambda r: "x" if r["k"] == "b" else None,
        source_of=lambda r: source("s.json", id=r["k"]),
    )
    report.apply("anon", [{"k": "a"}, {"k": "b"}], lambda r: "x" if r["k"] == "b" else None)
    steps = report.to_dict()["steps"]
    assert steps[1]["removed_rows"]["first"] == [{"file": "s.json", "id": "b", "reason": "x"}]
    assert steps[2]["removed_rows"]["first"] == [{"position": 1, "reason": "x"}]


def test_changed_rows_are_listed_and_counted():
    report = FilterReport("t")
    changes = [(source("rup.csv", line), "solutions restored from valid.jsonl") for line in range(2, 62)]
    report.record("repair", 100, 100, {}, changed=changes)
    step = report.to_dict()["steps"][0]
    assert step["removed_rows"] == {"count": 0, "first": []}
    assert step["changed_rows"]["count"] == 60 and len(step["changed_rows"]["first"]) == 50
    assert step["changed_rows"]["first"][0] == {
        "file": "rup.csv",
        "line": 2,
        "change": "solutions restored from valid.jsonl",
    }
    with pytest.raises(ValueError, match="reasons sum to 0"):
        report.record("bad", 3, 2, {})


def test_label_shares_hand_computed_and_flagged():
    assert label_shares(["a", "a", "b", "c"]) == {"a": 50.0, "b": 25.0, "c": 25.0}
    assert share_shift({"a": 50.0, "b": 50.0}, {"a": 100.0}) == 50.0
    labels = ["e"] * 4 + ["c"] * 3
    report = FilterReport("t")
    kept = report.apply(
        "drop_one_c", list(enumerate(labels)), lambda r: "x" if r[0] == 6 else None, label_of=lambda r: r[1]
    )
    shares = report.to_dict()["steps"][0]["label_shares"]
    # before 4/7 = 57.14 % e, after 4/6 = 66.67 %: 9.52 points > 5
    assert shares["before"] == {"c": 42.86, "e": 57.14} and shares["after"] == {"c": 33.33, "e": 66.67}
    assert shares["max_shift_points"] == pytest.approx(9.52) and shares["flagged"] is True
    assert len(report.notes) == 1 and "moved a label share by 9.5 points" in report.notes[0]
    report.apply(
        "drop_one_each", kept, lambda r: "x" if r[0] in (0, 5) else None, label_of=lambda r: r[1], tolerance=10
    )
    shares = report.to_dict()["steps"][1]["label_shares"]
    assert shares["flagged"] is False and shares["tolerance_points"] == 10 and len(report.notes) == 1
