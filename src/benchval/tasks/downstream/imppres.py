"""IMPPRES Presupposition and Implicature (Jeretič et al., 2020): pragmatic axis, ``calibrated``; the items
of both tasks (:func:`imppres_items`), registered by their folders (src/benchval/tasks/catalogue/presupposition/,
src/benchval/tasks/catalogue/implicature/).

Each NLI pair becomes an item: ``context_template`` holds the premise (``{premise}``,
``sentence1``) and hypothesis (``{hypothesis}``, ``sentence2``); the options are one answer
statement per NLI label from ``answer_template`` and ``label_words`` (e.g. " Given sentence
1, sentence 2 is true."). The gold label is ``gold_label`` (presupposition) or the field named
by ``label_field`` (implicature: ``gold_label_prag``, the pragmatic reading).

Filters, in order (paper: "near-duplicates and unnatural or unclear instances were removed"):

* ``controls`` (only with ``drop_controls: true``; the default keeps them, the paper names no
  such filter): IMPPRES's control items (presupposition ``control_item: true``; implicature
  ``item_type: control``).
* ``unnatural``: the pair is dropped when premise + hypothesis match one of the regular
  expressions in ``unnatural_patterns`` (name -> regex; e.g. the generator's "didn't used to",
  "a" before a vowel, misspelt lexemes); the reason names the pattern.
* ``near_duplicates``: IMPPRES generates each file from templates, filling names, nouns and verbs
  into the same frame. Two rows are near-duplicates when they come from the same file and agree on
  every field named in ``near_duplicate_fields`` (a field a row lacks counts as the value
  "absent") and on the gold label: they are the same test with other words. One row per such
  group is kept, chosen with the seed (``random.Random(f"{seed}/{group}")``, so a group's choice
  does not depend on the other groups); kept rows stay in source order. ``near_duplicate_fields``
  null skips the step.

After every step the label shares are compared with those before it; a step that moves a label's
share by more than ``label_share_tolerance`` percentage points is flagged in the filter report.
"""

from __future__ import annotations

import random

from benchval.tasks.base import (
    LABEL_SHARE_TOLERANCE,
    AdapterInput,
    FilterReport,
    Item,
    TaskDataError,
    source,
)
from benchval.tasks.downstream.common import answer_statements, unnatural_reason
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import Row, read_jsonl

DEFAULT_CONTEXT = "Sentence 1: {premise}\nSentence 2: {hypothesis}"
OPTIONS = [
    "files",
    "labels",
    "label_words",
    "label_field",
    "answer_template",
    "context_template",
    "drop_controls",
    "unnatural_patterns",
    "near_duplicate_fields",
    "label_share_tolerance",
]


def is_control(row: Row) -> bool:
    return bool(row.data.get("control_item")) or row.data.get("item_type") == "control"


def pair_text(row: Row) -> str:
    return f"{row.text('sentence1')} {row.text('sentence2')}"


def group_key(file_key: str, row: Row, fields: list[str], label_field: str) -> str:
    """The near-duplicate group of a row: its file, the values of ``fields`` ("absent" where the row
    lacks one) and its gold label, e.g. ``presup_both|trigger=negated|presupposition=positive|...``."""
    values = [f"{name}={row.data[name] if name in row.data else 'absent'}" for name in fields]
    return "|".join([file_key, *values, f"{label_field}={row.text(label_field)}"])


def one_per_group(rows: list[tuple[str, Row]], fields: list[str], label_field: str, seed: int) -> dict[int, tuple]:
    """For every (file key, row) pair (by ``id``), the pair kept for its near-duplicate group: one
    member per group drawn with ``random.Random(f"{seed}/{group}")``."""
    groups: dict[str, list[tuple[str, Row]]] = {}
    for pair in rows:
        groups.setdefault(group_key(pair[0], pair[1], fields, label_field), []).append(pair)
    kept_of = {}
    for key, members in groups.items():
        kept = random.Random(f"{seed}/{key}").choice(members)
        kept_of.update({id(pair): kept for pair in members})
    return kept_of


def duplicate_source(pair: tuple[str, Row], kept_of: dict[int, tuple]) -> dict:
    """File and line of a removed near-duplicate and (``kept``) of the row kept for its group."""
    kept = kept_of[id(pair)][1]
    return source(pair[1].path, pair[1].line, kept=f"{kept.path.name}:{kept.line}")


def item_id(prefix: str, file_key: str, row: Row) -> str:
    """Presupposition rows carry UID/paradigmID/pairID; implicature rows are named by file stem and line."""
    if "pairID" in row.data and "paradigmID" in row.data:
        return f"{prefix}-{row.data.get('UID', file_key)}-{row.data['paradigmID']}-{row.data['pairID']}"
    return f"{prefix}-{row.path.stem}-{row.line:04d}"


def imppres_items(inp: AdapterInput, report: FilterReport, prefix: str, default_label_field: str) -> list[Item]:
    check_options(inp, OPTIONS)
    labels = [str(label) for label in option(inp, "labels", ["entailment", "neutral", "contradiction"])]
    statements = answer_statements(labels, option(inp, "answer_template"), option(inp, "label_words", {}))
    template = option(inp, "context_template", DEFAULT_CONTEXT)
    label_field = option(inp, "label_field", default_label_field)
    rows = [(key, row) for key in option(inp, "files") for row in read_jsonl(inp.file(key))]
    report.record("read", len(rows), len(rows), {})
    for _, row in rows:
        if not row.text("sentence1") or not row.text("sentence2"):
            raise TaskDataError(row.path, row.line, "empty sentence1 or sentence2")
        if row.text(label_field) not in labels:
            raise TaskDataError(row.path, row.line, f"{label_field} {row.data.get(label_field)!r} not in {labels}")
    label_of = lambda pair: pair[1].text(label_field)  # noqa: E731
    tolerance = float(option(inp, "label_share_tolerance", LABEL_SHARE_TOLERANCE))
    if option(inp, "drop_controls", False):
        rows = report.apply(
            "controls",
            rows,
            lambda pair: "control_item" if is_control(pair[1]) else None,
            label_of=label_of,
            tolerance=tolerance,
        )
    patterns = option(inp, "unnatural_patterns", {}) or {}
    rows = report.apply(
        "unnatural",
        rows,
        lambda pair: unnatural_reason(pair_text(pair[1]), patterns),
        label_of=label_of,
        tolerance=tolerance,
    )
    fields = option(inp, "near_duplicate_fields", None)
    if fields is not None:
        kept_of = one_per_group(rows, [str(name) for name in fields], label_field, inp.seed)
        rows = report.apply(
            "near_duplicates",
            rows,
            lambda pair: None if kept_of[id(pair)] is pair else "near_duplicate",
            source_of=lambda pair: duplicate_source(pair, kept_of),
            label_of=label_of,
            tolerance=tolerance,
        )
    return [
        Item(
            id=item_id(prefix, key, row),
            context=template.replace("{premise}", row.text("sentence1"))
            .replace("{hypothesis}", row.text("sentence2"))
            .rstrip(),
            options=statements,
            label=labels.index(row.text(label_field)),
            source_row=row.line,
        )
        for key, row in rows
    ]
