"""The files the CommonWhy stages pass each other: answers tables, the judge's validity file, the KG source."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from benchval.commonwhy.eval.parquet_tables import read_table, write_table

ANSWER_COLUMNS = ["id", "system", "answer", "seconds"]


def write_answers(table: pd.DataFrame, path: str | Path, timing_path: str | Path | None = None, **timing) -> None:
    write_table(table, path)
    if timing_path:
        Path(timing_path).write_text(json.dumps(timing, indent=2))


def read_answers(path: str | Path) -> pd.DataFrame:
    return read_table(path, ANSWER_COLUMNS, "an answers table")


def read_validity(path: str | Path) -> dict:
    validity = json.loads(Path(path).read_text())
    if not {"valid", "reason", "judge"} <= set(validity):
        raise ValueError(f"{path}: not a judge validity file (needs valid, reason, judge)")
    return validity


def open_kg(kg_config: Mapping, store: str | None):
    from benchval.commonwhy.kg import open_source

    return open_source(kg_config or {}, store_path=store)
