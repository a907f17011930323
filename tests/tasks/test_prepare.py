"""prepare_task: adapter -> exclusions -> seeded subsample -> files; unavailable tasks are skipped."""

from __future__ import annotations

import hashlib
import json

import pytest

from benchval.plumbing.raw_files import ChecksumMismatch
from benchval.tasks.base import Item, TaskDataError, TaskUnavailable, register
from benchval.tasks.items import read_filter_report, read_items, read_task_meta
from benchval.tasks.prepare import prepare_task, read_exclusion_list


@register("_test_toy")
def _toy(source, report):
    n = int(source.options.get("n", 10))
    items = [Item(f"toy-{i:03d}", f"question {i}", [" yes", " no"], i % 2, i) for i in range(1, n + 1)]
    return report.apply("odd_length", items, lambda item: None if item.source_row != 3 else "hand-made drop")


@register("_test_duplicate_ids")
def _duplicates(source, report):
    return [Item("same", "c", [" a"], 0, 1), Item("same", "c", [" b"], 0, 2)]


@register("_test_unavailable")
def _unavailable(source, report):
    raise TaskUnavailable(source.task, "needs the Hugging Face Hub (dataset x/y)")


def config(adapter: str, **options) -> dict:
    return {
        "adapter": adapter,
        "dataset": None,
        "role": "cs_original",
        "pairs_with": None,
        "axes": ["event"],
        "scoring_mode": "mc",
        "metrics": ["accuracy", "macro_f1"],
        "label": "Toy",
        "options": options,
    }


def test_exclusions_then_subsample_recorded_in_order(tmp_path):
    ids = tmp_path / "exclude.txt"
    ids.write_text("# hand-checked\ntoy-001   # ambiguous\n\ntoy-002\n")
    out = tmp_path / "toy.parquet"
    meta = prepare_task("toy", config("_test_toy", n=20), {}, {"n_items": 5}, 7, exclude_ids_file=ids, output=out)
    steps = read_filter_report(tmp_path / "toy.filters.json")["steps"]
    assert [s["filter"] for s in steps] == ["odd_length", "excluded_by_hand", "subsample"]
    assert steps[1] == {
        "filter": "excluded_by_hand",
        "before": 19,
        "after": 17,
        "removed": {"listed in exclude.txt": 2},
        "removed_rows": {
            "count": 2,
            "first": [
                {"line": 1, "id": "toy-001", "reason": "listed in exclude.txt"},
                {"line": 2, "id": "toy-002", "reason": "listed in exclude.txt"},
            ],
        },
        "changed_rows": {"count": 0, "first": []},
    }
    assert steps[0]["removed_rows"]["first"] == [{"line": 3, "id": "toy-003", "reason": "hand-made drop"}]
    assert steps[2]["removed"] == {"sampled 5 of 17 (seed 7)": 12}
    assert steps[2]["removed_rows"]["count"] == 12 and len(steps[2]["removed_rows"]["first"]) == 12
    assert (meta["n_raw"], meta["n_final"]) == (20, 5)
    frame = read_items(out)
    assert len(frame) == 5 and not {"toy-001", "toy-002", "toy-003"} & set(frame["id"])
    assert frame["source_row"].is_monotonic_increasing  # original order kept
    assert read_task_meta(out)["axes"] == ["event"]


def test_subsample_is_seeded(tmp_path):
    def ids(seed, name):
        prepare_task("toy", config("_test_toy", n=50), {}, {"n_items": 8}, seed, output=tmp_path / f"{name}.parquet")
        return read_items(tmp_path / f"{name}.parquet")["id"].tolist()

    assert ids(1, "a") == ids(1, "b")
    assert ids(1, "a") != ids(2, "c")


def test_per_task_sample_size_and_all_items(tmp_path):
    out = tmp_path / "t.parquet"
    meta = prepare_task("toy", config("_test_toy", n=10), {}, {"n_items": 2, "per_task": {"toy": None}}, 1, output=out)
    assert meta["n_final"] == 9
    step = read_filter_report(tmp_path / "t.filters.json")["steps"][-1]
    nothing = {"count": 0, "first": []}
    assert step == dict(filter="subsample", before=9, after=9, removed={}, removed_rows=nothing, changed_rows=nothing)


def test_exclusion_list_parsing_and_unknown_ids(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("a\n  b  # note\n# c\n")
    assert read_exclusion_list(ids) == {"a", "b"}
    ids.write_text("toy-999\n")
    with pytest.raises(KeyError, match="toy-999"):
        prepare_task("toy", config("_test_toy"), {}, {}, 1, exclude_ids_file=ids, output=tmp_path / "x.parquet")


def test_duplicate_ids_are_an_error(tmp_path):
    with pytest.raises(ValueError, match="'same' used twice"):
        prepare_task("dup", config("_test_duplicate_ids"), {}, {}, 1, output=tmp_path / "d.parquet")


def test_unavailable_task_writes_empty_files_with_reason(tmp_path, caplog):
    out = tmp_path / "gs.parquet"
    with caplog.at_level("WARNING"):
        meta = prepare_task("gs", config("_test_unavailable"), {}, {"n_items": 5}, 1, output=out)
    assert meta["unavailable"] == "needs the Hugging Face Hub (dataset x/y)"
    assert "SKIP task gs" in caplog.text
    assert len(read_items(out)) == 0
    assert read_task_meta(out)["n_final"] == 0
    filters = json.loads((tmp_path / "gs.filters.json").read_text())
    assert filters["steps"] == [] and filters["notes"] == ["skipped: needs the Hugging Face Hub (dataset x/y)"]


def test_declared_checksum_is_verified(tmp_path):
    raw = tmp_path / "raw.txt"
    raw.write_text("content")
    with pytest.raises(ChecksumMismatch) as error:
        prepare_task(
            "toy",
            config("_test_toy"),
            {"data": raw},
            {},
            1,
            output=tmp_path / "t.parquet",
            checksums={"data": "0" * 64},
        )
    assert str(raw) in str(error.value) and "0" * 64 in str(error.value)
    assert not (tmp_path / "t.parquet").exists()
    meta = prepare_task(
        "toy",
        config("_test_toy"),
        {"data": raw},
        {},
        1,
        output=tmp_path / "t.parquet",
        checksums={"data": hashlib.sha256(b"content").hexdigest()},
    )
    assert meta["source_files"]["data"]["sha256"] == hashlib.sha256(b"content").hexdigest()


def test_empty_raw_file_fails_with_file_and_line(tmp_path):
    """A 0-byte raw file is an error even when its declared checksum matches (that of an empty file)."""
    empty = tmp_path / "data.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(
        TaskDataError,
        match=r"data.jsonl, line 1: raw file 'data' is empty, 0 bytes \(its declared "
        r"sha256 is that of an empty file\)",
    ):
        prepare_task(
            "toy",
            config("_test_toy"),
            {"data": empty},
            {},
            1,
            output=tmp_path / "t.parquet",
            checksums={"data": hashlib.sha256(b"").hexdigest()},
        )
    assert not (tmp_path / "t.parquet").exists()


def test_a_task_left_without_items_is_an_error(tmp_path):
    with pytest.raises(TaskDataError, match=r"task 'toy': no items \(0 rows read"):
        prepare_task("toy", config("_test_toy", n=0), {}, {}, 1, output=tmp_path / "t.parquet")


def test_exclusions_as_the_rule_passes_them_give_the_same_items(tmp_path):
    """Rule prepare_task passes the list's ids (a param), not its path: moving the checkout reruns nothing."""
    from benchval.tasks.prepare import exclusion_param

    ids = tmp_path / "exclude.txt"
    ids.write_text("# hand-checked\ntoy-001   # ambiguous\n\ntoy-002\n")
    param = exclusion_param("config/exclusions/exclude.txt", ids)
    assert param == {"file": "config/exclusions/exclude.txt", "ids": ["toy-001", "toy-002"]}
    by_file = prepare_task(
        "toy", config("_test_toy", n=20), {}, {"n_items": 5}, 7, exclude_ids_file=ids, output=tmp_path / "a.parquet"
    )
    by_param = prepare_task(
        "toy", config("_test_toy", n=20), {}, {"n_items": 5}, 7, exclusion=param, output=tmp_path / "b.parquet"
    )
    assert read_items(tmp_path / "a.parquet").equals(read_items(tmp_path / "b.parquet"))
    assert by_file["n_final"] == by_param["n_final"] == 5
