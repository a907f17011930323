"""Helpers shared by the downstream and control adapters.

Readers that keep line numbers for error messages, option shuffling with a per-item seeded
order, answer statements, the text-quality ("unnatural") rule and the near-duplicate step.
Every filter goes through :class:`benchval.tasks.base.FilterReport`, so its before/after
counts and reasons are recorded. (Hand-decision exclusion lists are applied by
``benchval.tasks.prepare`` after the adapter.)
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from benchval.tasks import rawfiles
from benchval.tasks.base import AdapterInput, FilterReport, TaskDataError
from benchval.tasks.downstream.near_duplicates import near_duplicate_of


@dataclass
class Row:
    """One raw record with the 1-based line on which it starts in ``path``."""

    path: Path
    line: int
    data: dict[str, Any]

    def field(self, key: str) -> Any:
        """The value of ``key``; a missing key is a :class:`TaskDataError` naming file and line."""
        if key not in self.data:
            raise TaskDataError(self.path, self.line, f"missing field {key!r} (have {sorted(self.data)})")
        return self.data[key]

    def text(self, key: str) -> str:
        """``key`` as a stripped string; a non-string value is a :class:`TaskDataError`."""
        value = self.field(key)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise TaskDataError(self.path, self.line, f"field {key!r} is {type(value).__name__}, expected text")
        return value.strip()


def read_jsonl(path: Path) -> Iterator[Row]:
    """Rows of a JSON Lines file (:func:`benchval.tasks.rawfiles.read_jsonl`: lines split on "\n"
    only; an empty file, a blank line inside it or broken JSON raise TaskDataError with the line)."""
    for line_number, data in rawfiles.read_jsonl(path):
        yield Row(Path(path), line_number, data)


def read_json(path: Path) -> Any:
    """A whole JSON document; an empty file or a parse error raises TaskDataError with the line."""
    text = Path(path).read_text(encoding="utf-8")
    if not text.strip():
        raise TaskDataError(path, 1, "empty JSON file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise TaskDataError(path, error.lineno, f"invalid JSON: {error.msg}") from None


def read_csv(path: Path, required: Sequence[str] = (), text: str | None = None) -> Iterator[Row]:
    """Rows of a CSV file (header row, quoted multi-line fields, optional UTF-8 BOM).

    ``line`` is the physical line on which the record starts. ``required`` header columns must
    all be present. ``text`` lets a caller pass the decoded content (e.g. from a zip member).
    An empty file, or a row with more or fewer fields than the header (e.g. a truncated last
    row), raises :class:`TaskDataError` naming the file and line; blank lines are skipped.
    """
    content = Path(path).read_text(encoding="utf-8-sig") if text is None else text.lstrip("\ufeff")
    if not content.strip():
        raise TaskDataError(path, 1, "empty CSV file (no header)")
    reader = csv.reader(io.StringIO(content, newline=""))
    start = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise TaskDataError(path, start, f"unreadable CSV row: {error}") from None
        if start == 1:
            header = fields
            missing = [column for column in required if column not in header]
            if missing:
                raise TaskDataError(path, 1, f"missing column(s) {missing} (header: {header})")
        elif fields:  # a blank line is an empty list
            if len(fields) != len(header):
                raise TaskDataError(path, start, f"row has {len(fields)} fields, header has {len(header)}")
            yield Row(Path(path), start, dict(zip(header, fields)))
        start = reader.line_num + 1


def item_rng(seed: int, item_id: str) -> random.Random:
    """A random generator for one item: the same for a given seed and id, whatever else is read."""
    return random.Random(f"{seed}/{item_id}")


def shuffle_options(options: Sequence[str], label: int, seed: int, item_id: str) -> tuple[list[str], int]:
    """Options in a seeded per-item order and the new index of the correct one."""
    order = list(range(len(options)))
    item_rng(seed, item_id).shuffle(order)
    return [options[i] for i in order], order.index(label)


def answer_statements(labels: Sequence[str], template: str, words: Mapping[str, str] | None = None) -> list[str]:
    """One answer statement per label: ``template`` with ``{label}`` replaced by the label's word.

    ``words`` maps a label to the word used in the statement (default: the label itself). The
    statements are returned in ``labels`` order and must be distinct (they are the options of a
    ``calibrated`` task, whose priors are keyed by their text).
    """
    words = dict(words or {})
    unknown = sorted(set(words) - set(labels))
    if unknown:
        raise ValueError(f"label_words name labels that are not in the label set: {unknown}")
    if "{label}" not in template:
        raise ValueError(f"answer template {template!r} has no '{{label}}' placeholder")
    statements = [template.replace("{label}", words.get(label, label)) for label in labels]
    if len(set(statements)) != len(statements):
        raise ValueError(f"answer statements are not distinct: {statements}")
    return statements


def option_text(text: str) -> str:
    """An option as appended to the context: one leading space, no other outer whitespace."""
    return " " + " ".join(text.split())


def unnatural_reason(text: str, patterns: Mapping[str, str]) -> str | None:
    """The name of the first configured pattern (name -> regex) that matches ``text``, else None."""
    for name, pattern in patterns.items():
        if re.search(pattern, text):
            return f"unnatural:{name}"
    return None


def drop_near_duplicates(
    records: list, text_of: Callable[[Any], str], threshold: float | None, seed: int, report: FilterReport
) -> list:
    """The shared near-duplicate step (see near_duplicates.py); ``threshold`` None skips it."""
    if threshold is None:
        return records
    duplicate_of = near_duplicate_of([text_of(record) for record in records], float(threshold), seed)
    marks = {id(record): dup for record, dup in zip(records, duplicate_of)}
    return report.apply("near_duplicates", records, lambda r: None if marks[id(r)] is None else "near_duplicate")


def option(inp: AdapterInput, key: str, default: Any = ...) -> Any:
    """An adapter option; a missing required option is a KeyError naming task and key."""
    if key in inp.options:
        return inp.options[key]
    if default is ...:
        raise KeyError(f"task {inp.task!r}: option {key!r} is required")
    return default


def check_options(inp: AdapterInput, known: Sequence[str]) -> None:
    """Unknown option keys are an error (a typo must not silently disable a filter)."""
    unknown = sorted(set(inp.options) - set(known))
    if unknown:
        raise KeyError(f"task {inp.task!r}: unknown option(s) {unknown}; known: {sorted(known)}")
