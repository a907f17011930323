"""The items table: written per the contract, read back with validation."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from benchval.tasks.base import FilterReport, Item
from benchval.tasks.items import (
    ItemsError,
    check_items,
    companion_paths,
    read_filter_report,
    read_items,
    read_task_meta,
    write_items,
)


def meta(n: int, **extra) -> dict:
    base = {
        "task": "toy",
        "role": "cs_original",
        "pairs_with": None,
        "axes": ["pragmatic"],
        "scoring_mode": "partial",
        "metrics": ["accuracy"],
        "n_raw": n,
        "n_final": n,
    }
    return base | extra


ITEMS = [
    Item("toy-1", "Sarah was better than Maria so", [" Sarah", " Maria"], 1, 1, target=" always won."),
    Item("toy-2", "", ["A", "B"], 0, 2, target=" end."),
]


def test_roundtrip_columns_types_and_metadata(tmp_path):
    path = tmp_path / "results" / "tasks" / "toy.parquet"
    report = FilterReport("toy")
    report.record("subsample", 5, 2, {"sampled 2 of 5 (seed 1)": 3})
    write_items(ITEMS, meta(2), report, path)
    schema = pq.read_schema(path)
    assert schema.names == ["id", "context", "options", "label", "target", "task", "source_row"]
    assert schema.field("options").type == pa.list_(pa.string())
    assert schema.field("label").type == pa.int64() and schema.field("source_row").type == pa.int64()
    frame = read_items(path)
    assert frame["options"].tolist() == [[" Sarah", " Maria"], ["A", "B"]]
    assert frame["target"].tolist() == [" always won.", " end."]
    assert frame["task"].tolist() == ["toy", "toy"]
    meta_path, filters_path = companion_paths(path)
    assert meta_path.name == "toy.meta.json" and filters_path.name == "toy.filters.json"
    assert read_task_meta(path) == read_task_meta(meta_path) == meta(2)
    steps = read_filter_report(filters_path)["steps"]
    assert steps == [
        {
            "filter": "subsample",
            "before": 5,
            "after": 2,
            "removed": {"sampled 2 of 5 (seed 1)": 3},
            "removed_rows": {"count": 3, "first": []},
            "changed_rows": {"count": 0, "first": []},
        }
    ]


def test_empty_items_file_keeps_schema(tmp_path):
    path = tmp_path / "gone.parquet"
    write_items([], meta(0, unavailable="needs the Hub"), FilterReport("toy"), path)
    frame = read_items(path)
    assert len(frame) == 0 and list(frame.columns)[:3] == ["id", "context", "options"]
    assert read_task_meta(path)["unavailable"] == "needs the Hub"


def test_read_items_rejects_missing_column_and_duplicate_ids(tmp_path):
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"id": ["a"], "context": ["x"]}), path)
    with pytest.raises(ItemsError, match="lacks columns"):
        read_items(path)
    write_items(ITEMS, meta(2), FilterReport("toy"), tmp_path / "ok.parquet")
    table = pq.read_table(tmp_path / "ok.parquet")
    doubled = pa.concat_tables([table, table])
    pq.write_table(doubled, path)
    with pytest.raises(ItemsError, match="duplicate item ids"):
        read_items(path)


def test_meta_must_match_item_count(tmp_path):
    with pytest.raises(ItemsError, match="n_final=3"):
        write_items(ITEMS, meta(3), FilterReport("toy"), tmp_path / "x.parquet")


@pytest.mark.parametrize(
    "item, mode, message",
    [
        (Item("a", "ends in space ", [" x", " y"], 0, 1), "mc", "ends in a space"),
        (Item("a", "ctx", [" x", " y"], 0, 1), "partial", "needs a non-empty target"),
        (Item("a", "ctx", [" x", " y"], 0, 1, target=" t"), "calibrated", "only used in 'partial' and 'mc'"),
        (Item("a", "ctx", [" x", " y"], 0, 1, target=""), "mc", "must be non-empty or None"),
        (Item("a", "ctx", [" x", ""], 0, 1), "mc", "non-empty strings"),
    ],
)
def test_check_items_enforces_contract(item, mode, message):
    with pytest.raises(ItemsError, match=message):
        check_items([item], "toy", mode)


def test_check_items_rejects_duplicate_ids():
    with pytest.raises(ItemsError, match="used twice"):
        check_items([Item("a", "c", [" x"], 0, 1), Item("a", "c", [" y"], 0, 2)], "toy", "mc")


def test_filter_report_json_is_contract_layout():
    report = FilterReport("toy")
    kept = report.apply("length", [1, 22, 333], lambda n: "too long" if n > 99 else None)
    report.note("a repair")
    assert kept == [1, 22]
    assert json.loads(json.dumps(report.to_dict())) == {
        "task": "toy",
        "steps": [
            {
                "filter": "length",
                "before": 3,
                "after": 2,
                "removed": {"too long": 1},
                "removed_rows": {"count": 1, "first": [{"position": 2, "reason": "too long"}]},
                "changed_rows": {"count": 0, "first": []},
            }
        ],
        "notes": ["a repair"],
    }
