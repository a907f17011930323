"""The readers of raw benchmark files, for every adapter; they fail loudly, naming file and line.

* :func:`read_jsonl`: JSON Lines -> ``[Row]`` (one object a line),
* :func:`read_json`: one whole JSON document,
* :func:`read_csv`: CSV with a header -> ``[Row]`` keyed by column,
* :func:`read_label_lines`: a one-label-per-line file, checked against the data file's count,
* :func:`parse_label`: a raw label mapped to a 0-based option index.

Lines are split on "\\n" only (a "\\r" before it is dropped): ``str.splitlines`` also splits on
U+2028, U+0085 and other characters that are valid inside a JSON string or a label.

Blank lines: trailing blank lines end a file and are ignored everywhere. Inside a JSON Lines or
label file a blank line is an error (it is a lost record, and would shift every later line's
label); inside a CSV file a blank line between rows is skipped (spreadsheet exports write them,
and the ``csv`` module reads them as an empty row, never as a record).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from benchval.tasks.base import TaskDataError


@dataclass
class Row:
    """One raw record with the 1-based line on which it starts in ``path`` (a file, or a name such
    as ``hf://datasets/...`` for a record that did not come from a file)."""

    path: Path | str
    line: int
    data: dict[str, Any]

    def field(self, key: str) -> Any:
        """The value of ``key``; a missing key is a :class:`TaskDataError` naming file and line."""
        if key not in self.data:
            raise TaskDataError(self.path, self.line, f"missing field {key!r} (have {sorted(self.data)})")
        return self.data[key]

    def text(self, key: str) -> str:
        """``key`` as a stripped string (null reads as ""); another non-string value is an error."""
        value = self.field(key)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise TaskDataError(self.path, self.line, f"field {key!r} is {type(value).__name__}, expected text")
        return value.strip()

    def strings(self, *keys: str) -> list[str]:
        """The named fields as they are (not stripped); a missing, null or non-string one is an error."""
        values = [self.field(key) for key in keys]
        for key, value in zip(keys, values):
            if not isinstance(value, str):
                raise TaskDataError(self.path, self.line, f"field {key!r} is {type(value).__name__}, expected text")
        return values


def _lines(path: Path) -> list[str]:
    """The file's lines, split on "\\n" only, "\\r" endings dropped, trailing blank lines removed."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise TaskDataError(path, None, f"not UTF-8 text: {error}") from None
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_jsonl(path: Path | str) -> list[Row]:
    """Every line of a JSON Lines file as a :class:`Row`.

    An empty file, a blank line inside the file, invalid JSON or a value that is not an object raise
    :class:`TaskDataError` naming the file and line."""
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
        rows.append(Row(Path(path), number, record))
    return rows


def read_json(path: Path | str) -> Any:
    """A whole JSON document; an empty file or a parse error raises TaskDataError with the line."""
    text = Path(path).read_text(encoding="utf-8")
    if not text.strip():
        raise TaskDataError(path, 1, "empty JSON file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise TaskDataError(path, error.lineno, f"invalid JSON: {error.msg}") from None


def read_csv(path: Path | str, required: Iterable[str] = (), text: str | None = None) -> list[Row]:
    """Rows of a CSV file with a header (quoted multi-line fields, optional UTF-8 BOM), keyed by column.

    ``line`` is the physical line on which the record starts. ``required`` header columns must all
    be present. ``text`` lets a caller pass the decoded content (e.g. from a zip member). An empty
    file, an unreadable row, or a row with more or fewer fields than the header (e.g. a truncated
    last row) raises :class:`TaskDataError` naming the file and line.
    """
    content = Path(path).read_text(encoding="utf-8-sig") if text is None else text.lstrip("\ufeff")
    if not content.strip():
        raise TaskDataError(path, 1, "empty CSV file (no header)")
    reader = csv.reader(io.StringIO(content, newline=""))
    rows, start, header = [], 1, None
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return rows
        except csv.Error as error:
            raise TaskDataError(path, start, f"unreadable CSV row: {error}") from None
        if header is None:
            header = fields
            missing = [column for column in required if column not in header]
            if missing:
                raise TaskDataError(path, 1, f"missing column(s) {missing} (header: {header})")
        elif fields:  # a blank line is an empty list
            if len(fields) != len(header):
                raise TaskDataError(path, start, f"row has {len(fields)} fields, header has {len(header)}")
            rows.append(Row(Path(path), start, dict(zip(header, fields))))
        start = reader.line_num + 1


def read_label_lines(path: Path | str, expected: int, data_path: Path | str) -> list[str]:
    """One label per line (stripped); the count must equal the data file's item count."""
    labels = [line.strip() for line in _lines(Path(path))]
    if len(labels) != expected:
        raise TaskDataError(path, None, f"{len(labels)} labels but the data file {data_path} has {expected} items")
    for number, label in enumerate(labels, start=1):
        if not label:
            raise TaskDataError(path, number, "empty label line")
    return labels


def parse_label(value: object, mapping: Mapping[str, int], path: Path | str, line: int) -> int:
    """Map a raw label (``"1"``, ``2``, ...) to a 0-based index via ``mapping`` or fail."""
    key = str(value).strip()
    if key not in mapping:
        raise TaskDataError(path, line, f"label {value!r} not one of {sorted(mapping)}")
    return mapping[key]
