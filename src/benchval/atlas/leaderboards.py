"""Leaderboard files as they are (the mirror's benchbench/ tables; docs/atlas.md, "Leaderboard files").

A file is wide (``model,<column>,...``; ``llm_model`` is read as ``model``) or long
(``model,score,scenario,source,aggragated_from,tag``: one row per model and scenario; its columns are
named ``<leaderboard>_<scenario>``). Reading a file:

* a line equal to the header repeated inside the file is dropped and listed;
* a declared missing-value token (``atlas.missing_tokens``, e.g. ``-``) is a missing score, counted;
  any other cell that is not a number fails, naming the file, line and column;
* a row with more cells than the header fails; a row holding only a model name (no score) is dropped
  and listed, and so is a row with fewer cells than the header (which columns its scores belong to is
  unknown: OpenCompass academic's ``Mistral-7B-Instruct-v0.3`` row has 4 scores for 9 columns);
* a file of a lower-is-better leaderboard (``lower_is_better_benchmarks.txt``: file-name prefixes) has
  every score negated, so that higher is better everywhere before ranking.

Snapshots: a file's leaderboard is its name before the first 4- or 6-digit date token
(``hf_open_llm_v1_240829_frozen`` -> ``hf_open_llm_v1``, date 240829; ``arena_hard_2404`` -> date 2404,
read as 2404 00). Per leaderboard one snapshot is used: the latest date; among files of that date the one
with the most score cells (the wide file with sub-scores over its one-column summary); byte-identical
files count once. A column held by two used files (``OC_Language`` in OpenCompass's wide file and in its
one-column file) is kept from the file with more cells. Every file and column not used is listed with
the rule that set it aside.
"""

from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

LONG_HEADER = ["model", "score", "scenario", "source", "aggragated_from", "tag"]
_DATE = re.compile(r"_(\d{6}|\d{4})(?=_|$)")
CELL_COLUMNS = ["source", "leaderboard", "line", "raw_name", "column", "value"]


class LeaderboardError(ValueError):
    """A leaderboard file that cannot be read as stated; the message names the file, line and column."""


def leaderboard_of(stem: str) -> tuple[str, str]:
    """(leaderboard name, date as 6 digits) of a file stem."""
    match = _DATE.search(stem)
    if not match:
        return stem, "000000"
    return stem[: match.start()], match[1].ljust(6, "0")


def _number(text: str, missing_tokens: frozenset, where: str) -> float:
    text = text.strip()
    if text in missing_tokens:
        return np.nan
    try:
        return float(text)
    except ValueError:
        raise LeaderboardError(
            f"{where}: {text!r} is not a number nor a declared missing token {sorted(missing_tokens)}"
        ) from None


@dataclass
class FileRead:
    cells: pd.DataFrame  # CELL_COLUMNS
    dropped: list  # {source, line, raw_name, rule}
    n_missing: int
    flipped: bool


def read_leaderboard(
    path: str | Path, missing_tokens, lower_is_better: bool = False, label: str | None = None
) -> FileRead:
    """Every score cell of one file (long format: one cell per row), with what was dropped and why."""
    path = Path(path)
    label = label or path.name
    missing_tokens = frozenset(missing_tokens)
    leaderboard, _ = leaderboard_of(path.stem)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        raise LeaderboardError(f"{label}: empty file")
    header = [h.strip() for h in rows[0]]
    if header and header[0] == "llm_model":
        header[0] = "model"
    if not header or header[0] != "model":
        raise LeaderboardError(f"{label}: line 1: the first column must be 'model' (got {header[:1]})")
    long = header == LONG_HEADER
    records, dropped, n_missing = [], [], 0
    for number, row in enumerate(rows[1:], start=2):
        if not row or all(not cell.strip() for cell in row):
            dropped.append({"source": label, "line": number, "raw_name": "", "rule": "empty line"})
            continue
        if [cell.strip() for cell in row] == [h for h in rows[0]] or [c.strip() for c in row] == header:
            dropped.append(
                {"source": label, "line": number, "raw_name": row[0], "rule": "header line repeated inside the file"}
            )
            continue
        if len(row) > len(header):
            raise LeaderboardError(f"{label}: line {number}: {len(row)} cells, the header has {len(header)}")
        name = row[0].strip()
        if not name:
            raise LeaderboardError(f"{label}: line {number}, column 'model': empty model name")
        if len(row) == 1:
            dropped.append({"source": label, "line": number, "raw_name": name, "rule": "row without a score"})
            continue
        if len(row) < len(header):
            rule = f"row with {len(row)} cells, the header has {len(header)}: which columns its scores are is unknown"
            dropped.append({"source": label, "line": number, "raw_name": name, "rule": rule})
            continue
        if long:
            value = _number(row[1], missing_tokens, f"{label}: line {number}, column 'score'")
            n_missing += int(np.isnan(value))
            records.append((label, leaderboard, number, name, f"{leaderboard}_{row[2].strip()}", value))
            continue
        for column, cell in zip(header[1:], row[1:]):
            value = _number(cell, missing_tokens, f"{label}: line {number}, column {column!r}")
            n_missing += int(np.isnan(value))
            records.append((label, leaderboard, number, name, column, value))
    cells = pd.DataFrame.from_records(records, columns=CELL_COLUMNS)
    if lower_is_better:
        cells["value"] = -cells["value"]
    return FileRead(
        cells=cells.dropna(subset=["value"]).reset_index(drop=True),
        dropped=dropped,
        n_missing=n_missing,
        flipped=lower_is_better,
    )


def read_lower_is_better(path: str | Path) -> list[str]:
    return [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def _score_cells(path: Path) -> int:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if rows and rows[0] == LONG_HEADER:
        return len(rows) - 1
    return sum(max(len(row) - 1, 0) for row in rows[1:])


def select_snapshots(paths: list[Path], label_of) -> tuple[list[Path], pd.DataFrame]:
    """The one file used per leaderboard, and a table of every file with its leaderboard and decision."""
    records, seen_hashes = [], {}
    for path in paths:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        leaderboard, date = leaderboard_of(path.stem)
        record = {"source": label_of(path), "leaderboard": leaderboard, "date": date, "cells": _score_cells(path)}
        if digest in seen_hashes:
            record["decision"] = f"not used: byte-identical to {seen_hashes[digest]}"
        else:
            seen_hashes[digest] = record["source"]
            record["decision"] = ""
        records.append((path, record))
    chosen = []
    table = []
    for leaderboard in sorted({r["leaderboard"] for _, r in records}):
        candidates = [(p, r) for p, r in records if r["leaderboard"] == leaderboard and not r["decision"]]
        best_path, best = max(candidates, key=lambda item: (item[1]["date"], item[1]["cells"], item[1]["source"]))
        for path, record in [(p, r) for p, r in records if r["leaderboard"] == leaderboard]:
            if path == best_path:
                record["decision"] = "used: latest snapshot" + (
                    ", most score cells among files of that date" if len(candidates) > 1 else ""
                )
                chosen.append(path)
            elif not record["decision"]:
                older = record["date"] < best["date"]
                why = "older snapshot" if older else "fewer score cells on the same date"
                record["decision"] = f"not used: {why} than {best['source']}"
            table.append(record)
    return chosen, pd.DataFrame(table, columns=["source", "leaderboard", "date", "cells", "decision"])


def deduplicate_columns(cells: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A column held by several used files is kept from the file with the most cells; the rest listed."""
    size = cells.groupby("source").size()
    owners = cells.groupby("column")["source"].unique()
    keep, dropped = {}, []
    for column, sources in owners.items():
        ranked = sorted(sources, key=lambda s: (-size[s], s))
        keep[column] = ranked[0]
        dropped += [
            {"column": column, "source": s, "rule": f"column also in {ranked[0]} (more cells): kept there"}
            for s in ranked[1:]
        ]
    mask = cells["source"] == cells["column"].map(keep)
    return cells[mask].reset_index(drop=True), pd.DataFrame(dropped, columns=["column", "source", "rule"])
