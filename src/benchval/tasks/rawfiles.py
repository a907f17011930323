"""Readers for raw benchmark files that fail loudly: every problem names the file and line.

* :func:`read_jsonl`: JSON Lines -> ``[(line_number, object)]`` (1-based line numbers),
* :func:`read_csv_rows`: CSV with a header -> ``[(line_number, {column: value})]``,
* :func:`read_label_lines`: a one-label-per-line file, checked against the data file's count,
* :func:`require_fields`: fetch named string fields of a record, or fail naming the field.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Iterable, Mapping

from benchval.tasks.base import TaskDataError


def _lines(path: Path) -> list[str]:
    """The file's lines, split on "\n" only (a "\r" before it is dropped), trailing blank lines
    removed. ``str.splitlines`` is not used: it also splits on U+2028, U+0085 and other characters
    that are valid inside a JSON string or a label."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise TaskDataError(path, None, f"not UTF-8 text: {error}") from None
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_jsonl(path: Path | str) -> list[tuple[int, dict]]:
    """Every line of a JSON Lines file as an object, with its 1-based line number.

    Lines are split on "\n" only (a U+2028 inside a JSON string is valid JSON). An empty file, a
    blank line inside the file, invalid JSON or a value that is not an object raise
    :class:`TaskDataError` naming the file and line. The one JSON Lines reader of the package
    (``benchval.tasks.downstream.common.read_jsonl`` wraps it)."""
    lines = _lines(Path(path))
    if not lines:
        raise TaskDataError(path, 1, "empty JSON Lines file (no records)")
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise TaskDataError(path, number, "blank line inside a JSON Lines file")
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise TaskDataError(path, number, f"invalid JSON ({error.msg} at column {error.colno})") from None
        if not isinstance(record, dict):
            raise TaskDataError(path, number, f"expected a JSON object, got {type(record).__name__}")
        rows.append((number, record))
    return rows


def read_csv_rows(path: Path | str, required: Iterable[str] = ()) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV file with a header, keyed by column; the number is the row's first line.

    A row with more or fewer fields than the header, or a header lacking a ``required`` column,
    raises :class:`TaskDataError`.
    """
    path = Path(path)
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            raise TaskDataError(path, 1, "empty CSV file (no header)") from None
        except csv.Error as error:
            raise TaskDataError(path, 1, f"unreadable CSV header: {error}") from None
        missing = [column for column in required if column not in header]
        if missing:
            raise TaskDataError(path, 1, f"header lacks columns {missing} (has {header})")
        rows, start = [], reader.line_num + 1
        while True:
            try:
                fields = next(reader)
            except StopIteration:
                break
            except csv.Error as error:
                raise TaskDataError(path, start, f"unreadable CSV row: {error}") from None
            if fields and len(fields) != len(header):
                raise TaskDataError(path, start, f"{len(fields)} fields, header has {len(header)}")
            if fields:
                rows.append((start, dict(zip(header, fields))))
            start = reader.line_num + 1
    return rows


def read_label_lines(path: Path | str, expected: int, data_path: Path | str) -> list[str]:
    """One label per line (stripped); the count must equal the data file's item count."""
    labels = [line.strip() for line in _lines(Path(path))]
    if len(labels) != expected:
        raise TaskDataError(
            path, None, f"{len(labels)} labels but the data file {data_path} has {expected} items"
        )
    for number, label in enumerate(labels, start=1):
        if not label:
            raise TaskDataError(path, number, "empty label line")
    return labels


def require_fields(record: Mapping[str, object], fields: Iterable[str], path: Path | str, line: int) -> list[str]:
    """The named fields of ``record`` as strings; a missing or non-string field is an error."""
    values = []
    for name in fields:
        if name not in record:
            raise TaskDataError(path, line, f"missing field {name!r}")
        value = record[name]
        if not isinstance(value, str):
            raise TaskDataError(path, line, f"field {name!r} should be a string, got {type(value).__name__}")
        values.append(value)
    return values


def parse_label(value: object, mapping: Mapping[str, int], path: Path | str, line: int) -> int:
    """Map a raw label (``"1"``, ``2``, ...) to a 0-based index via ``mapping`` or fail."""
    key = str(value).strip()
    if key not in mapping:
        raise TaskDataError(path, line, f"label {value!r} not one of {sorted(mapping)}")
    return mapping[key]
