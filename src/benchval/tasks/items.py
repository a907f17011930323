"""The items table (docs/data-contract.md, section 1): writer and validating readers.

``results/tasks/{task}.parquet`` holds one row per item; its key-value metadata and
``{task}.meta.json`` hold the task metadata; ``{task}.filters.json`` holds the filter report.
A task whose data could not be obtained has an empty items file and ``meta["unavailable"]`` set
to the reason; readers return it as such and :func:`unavailable_reason` tells callers why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Mapping

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from benchval.tasks.base import AXES, ROLES, SCORING_MODES, FilterReport, Item

META_KEY = b"benchval.task_meta"
ITEM_SCHEMA = pa.schema(
    [
        pa.field("id", pa.string(), nullable=False),
        pa.field("context", pa.string(), nullable=False),
        pa.field("options", pa.list_(pa.string()), nullable=False),
        pa.field("label", pa.int64(), nullable=False),
        pa.field("target", pa.string(), nullable=True),
        pa.field("task", pa.string(), nullable=False),
        pa.field("source_row", pa.int64(), nullable=False),
    ]
)
ITEM_COLUMNS = ITEM_SCHEMA.names
REQUIRED_META = ("task", "role", "pairs_with", "axes", "scoring_mode", "metrics", "n_raw", "n_final")


class ItemsError(ValueError):
    """An items table or its metadata breaks the contract; the message names file/item/key."""


def companion_paths(items_path: Path | str) -> tuple[Path, Path]:
    """``{task}.meta.json`` and ``{task}.filters.json`` beside ``{task}.parquet``."""
    items_path = Path(items_path)
    stem = items_path.with_suffix("")
    return stem.with_name(stem.name + ".meta.json"), stem.with_name(stem.name + ".filters.json")


def check_items(items: Iterable[Item], task: str, scoring_mode: str) -> list[Item]:
    """Contract checks that apply to every adapter: unique ids, contexts that do not end in a
    space, non-empty options, a ``target`` in every ``partial`` item, and otherwise a target only in
    ``mc`` items (an optional shared suffix scored after each option)."""
    items, seen = list(items), {}
    for item in items:
        if item.id in seen:
            raise ItemsError(
                f"task {task!r}: item id {item.id!r} used twice (rows {seen[item.id]} and {item.source_row})"
            )
        seen[item.id] = item.source_row
        where = f"task {task!r}, item {item.id!r} (row {item.source_row})"
        if item.context.endswith(" "):
            raise ItemsError(
                f"{where}: context ends in a space ({item.context[-20:]!r}); the space belongs to the option"
            )
        if not item.options or any(not isinstance(option, str) or option == "" for option in item.options):
            raise ItemsError(f"{where}: options must be non-empty strings, got {item.options!r}")
        if scoring_mode == "partial" and not item.target:
            raise ItemsError(f"{where}: scoring mode 'partial' needs a non-empty target")
        if scoring_mode not in ("partial", "mc") and item.target is not None:
            raise ItemsError(f"{where}: target is only used in 'partial' and 'mc' modes (task mode {scoring_mode!r})")
        if scoring_mode == "mc" and item.target is not None and not item.target:
            raise ItemsError(f"{where}: an 'mc' target (shared suffix) must be non-empty or None")
    return items


def items_table(items: Iterable[Item], task: str) -> pa.Table:
    items = list(items)
    columns = {
        "id": [item.id for item in items],
        "context": [item.context for item in items],
        "options": [list(item.options) for item in items],
        "label": [int(item.label) for item in items],
        "target": [item.target for item in items],
        "task": [task] * len(items),
        "source_row": [int(item.source_row) for item in items],
    }
    return pa.Table.from_pydict(columns, schema=ITEM_SCHEMA)


def check_meta(meta: Mapping[str, object], source: str) -> None:
    missing = [key for key in REQUIRED_META if key not in meta]
    if missing:
        raise ItemsError(f"{source}: task metadata lacks {missing}")
    if meta["role"] not in ROLES:
        raise ItemsError(f"{source}: role {meta['role']!r} not in {ROLES}")
    if meta["scoring_mode"] not in SCORING_MODES:
        raise ItemsError(f"{source}: scoring_mode {meta['scoring_mode']!r} not in {SCORING_MODES}")
    unknown_axes = sorted(set(meta["axes"]) - set(AXES))
    if unknown_axes:
        raise ItemsError(f"{source}: unknown axes {unknown_axes}; known {AXES}")


def write_items(
    items: Iterable[Item], meta: Mapping[str, object], report: FilterReport, items_path: Path | str
) -> None:
    """Write ``{task}.parquet`` (meta in its key-value metadata), ``.meta.json`` and ``.filters.json``."""
    items_path = Path(items_path)
    meta = dict(meta)
    table = items_table(items, str(meta["task"]))
    if meta["n_final"] != table.num_rows:
        raise ItemsError(f"{items_path}: meta n_final={meta['n_final']} but {table.num_rows} items")
    check_meta(meta, str(items_path))
    meta_json = json.dumps(meta, indent=2, ensure_ascii=False, default=str)
    table = table.replace_schema_metadata({META_KEY: meta_json.encode("utf-8")})
    meta_path, filters_path = companion_paths(items_path)
    items_path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, items_path)
    meta_path.write_text(meta_json + "\n", encoding="utf-8")
    filters_path.write_text(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def read_items(path: Path | str) -> pd.DataFrame:
    """The items table as a DataFrame (``options`` as lists of str), after checking its columns,
    types, unique ids and labels. An unavailable task gives an empty frame with the same columns."""
    path = Path(path)
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowInvalid) as error:
        raise ItemsError(f"{path}: cannot read items table: {error}") from error
    missing = [name for name in ITEM_COLUMNS if name not in table.column_names]
    if missing:
        raise ItemsError(f"{path}: items table lacks columns {missing}")
    for field in ITEM_SCHEMA:
        actual = table.schema.field(field.name).type
        if not actual.equals(field.type) and not (pa.types.is_large_string(actual) and field.type == pa.string()):
            raise ItemsError(f"{path}: column {field.name!r} has type {actual}, expected {field.type}")
    frame = table.select(ITEM_COLUMNS).to_pandas()
    frame["options"] = frame["options"].map(list)
    duplicated = frame["id"][frame["id"].duplicated()]
    if len(duplicated):
        raise ItemsError(f"{path}: duplicate item ids, e.g. {duplicated.iloc[0]!r}")
    n_options = frame["options"].map(len)
    bad = frame[(frame["label"] < 0) | (frame["label"] >= n_options)]
    if len(bad):
        raise ItemsError(f"{path}: item {bad['id'].iloc[0]!r} has label {bad['label'].iloc[0]} outside its options")
    return frame


def read_task_meta(path: Path | str) -> dict:
    """Task metadata from a ``.parquet`` items file's key-value metadata or from ``.meta.json``."""
    path = Path(path)
    if path.suffix == ".json":
        meta = json.loads(path.read_text(encoding="utf-8"))
    else:
        schema_meta = pq.read_schema(path).metadata or {}
        if META_KEY not in schema_meta:
            raise ItemsError(f"{path}: no task metadata (key {META_KEY.decode()}) in the parquet file")
        meta = json.loads(schema_meta[META_KEY].decode("utf-8"))
    check_meta(meta, str(path))
    return meta


def read_filter_report(path: Path | str) -> dict:
    """The filter report (``{task}.filters.json``), checking that every step's counts add up."""
    path = Path(path)
    report = json.loads(Path(path).read_text(encoding="utf-8"))
    for step in report.get("steps", []):
        if step["before"] - step["after"] != sum(step["removed"].values()):
            raise ItemsError(f"{path}: step {step['filter']!r} counts do not add up")
    return report


def unavailable_reason(meta: Mapping[str, object]) -> str | None:
    """Why the task has no items (e.g. its data needs the Hugging Face Hub), or None."""
    return meta.get("unavailable") or None
