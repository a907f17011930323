"""IMPPRES Presupposition and Implicature (Jeretič et al., 2020): pragmatic axis, ``calibrated``.

Each NLI pair becomes an item: ``context_template`` holds the premise (``{premise}``,
``sentence1``) and hypothesis (``{hypothesis}``, ``sentence2``); the options are one answer
statement per NLI label from ``answer_template`` and ``label_words`` (e.g. " Given sentence
1, sentence 2 is true."). The gold label is ``gold_label`` (presupposition) or the field named
by ``label_field`` (implicature: ``gold_label_prag``, the pragmatic reading).

Filters, in order (paper: "near-duplicates and unnatural or unclear instances were removed"):

* ``controls`` (``drop_controls``): IMPPRES's control items (presupposition
  ``control_item: true``; implicature ``item_type: control``) test plain entailment under
  negation/modality, not the phenomenon, and are dropped.
* ``unnatural``: the pair is dropped when premise + hypothesis match one of the regular
  expressions in ``unnatural_patterns`` (name -> regex; e.g. the generator's "didn't used to",
  "a" before a vowel, misspelt lexemes); the reason names the pattern.
* ``near_duplicates``: the shared rule of near_duplicates.py on premise + hypothesis with
  ``near_duplicate_threshold``. IMPPRES is generated from templates, so pairs from the same
  template share most of their words even when the names and nouns differ; a low word-overlap
  threshold therefore acts as a template de-duplication.
"""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import (
    Row, answer_statements, check_options, drop_near_duplicates, option, read_jsonl, unnatural_reason,
)

DEFAULT_CONTEXT = "Sentence 1: {premise}\nSentence 2: {hypothesis}"
OPTIONS = ["files", "labels", "label_words", "label_field", "answer_template", "context_template",
           "drop_controls", "unnatural_patterns", "near_duplicate_threshold"]


def is_control(row: Row) -> bool:
    return bool(row.data.get("control_item")) or row.data.get("item_type") == "control"


def pair_text(row: Row) -> str:
    return f"{row.text('sentence1')} {row.text('sentence2')}"


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
    if option(inp, "drop_controls", True):
        rows = report.apply("controls", rows, lambda pair: "control_item" if is_control(pair[1]) else None)
    patterns = option(inp, "unnatural_patterns", {}) or {}
    rows = report.apply("unnatural", rows, lambda pair: unnatural_reason(pair_text(pair[1]), patterns))
    rows = drop_near_duplicates(rows, lambda pair: pair_text(pair[1]),
                                option(inp, "near_duplicate_threshold", None), inp.seed, report)
    return [
        Item(
            id=item_id(prefix, key, row),
            context=template.replace("{premise}", row.text("sentence1"))
            .replace("{hypothesis}", row.text("sentence2")).rstrip(),
            options=statements,
            label=labels.index(row.text(label_field)),
            source_row=row.line,
        )
        for key, row in rows
    ]


@register("imppres_presupposition")
def imppres_presupposition(inp: AdapterInput, report: FilterReport) -> list[Item]:
    return imppres_items(inp, report, "imppres_presup", "gold_label")


@register("imppres_implicature")
def imppres_implicature(inp: AdapterInput, report: FilterReport) -> list[Item]:
    return imppres_items(inp, report, "imppres_impl", "gold_label_prag")
