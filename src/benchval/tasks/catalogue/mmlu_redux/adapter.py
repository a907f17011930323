"""MMLU-Redux (Gema et al., 2025), three subjects: control task, scoring mode ``mc``.

Each row of the re-annotation sheet is an MMLU test question with four choices and the
original 0-based ``answer``. Filter ``error_types``: rows whose annotation (``error_type``,
compared case-insensitively, so "OK" == "Ok") is not in ``keep_error_types`` are dropped and
counted by their error type; by default only questions the annotators found correct are kept,
which is what MMLU-Redux is for. The choices are scored by their own log-likelihood after
``context_template`` (``{question}`` is replaced), each with a leading space.

Options: ``subjects`` (file keys), ``keep_error_types``, ``context_template``.
"""

from __future__ import annotations

import ast

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import option_text
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import read_csv

COLUMNS = ("question", "choices", "answer", "error_type")


def parse_choices(row) -> list[str]:
    """The ``choices`` cell: a Python-literal list of four strings."""
    try:
        choices = ast.literal_eval(row.field("choices"))
    except (ValueError, SyntaxError) as error:
        raise TaskDataError(row.path, row.line, f"choices is not a Python list literal: {error}") from None
    if not isinstance(choices, list) or len(choices) != 4 or not all(isinstance(c, str) for c in choices):
        raise TaskDataError(row.path, row.line, f"choices must be a list of 4 strings, got {choices!r}")
    return [str(choice) for choice in choices]


def parse_answer(row) -> int:
    text = row.text("answer")
    if text not in {"0", "1", "2", "3"}:
        raise TaskDataError(row.path, row.line, f"answer must be 0..3, got {text!r}")
    return int(text)


def mmlu_item(subject: str, index: int, row, template: str) -> tuple[Item, str]:
    """The item for one sheet row and its normalised error type."""
    question = row.text("question")
    if not question:
        raise TaskDataError(row.path, row.line, "empty question")
    item = Item(
        id=f"mmlu_redux-{subject}-{index:03d}",
        context=template.replace("{question}", question).rstrip(),
        options=[option_text(choice) for choice in parse_choices(row)],
        label=parse_answer(row),
        source_row=row.line,
    )
    return item, row.text("error_type").lower() or "(blank)"


@register("mmlu_redux")
def mmlu_redux(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["subjects", "keep_error_types", "context_template"])
    template = option(inp, "context_template", "Question: {question}\nAnswer:")
    keep = {str(kind).lower() for kind in option(inp, "keep_error_types", ["ok"])}
    parsed = []
    for subject in option(inp, "subjects"):
        rows = read_csv(inp.file(subject), required=COLUMNS)
        parsed += [mmlu_item(subject, index, row, template) for index, row in enumerate(rows)]
    report.record("read", len(parsed), len(parsed), {})
    parsed = report.apply("error_types", parsed, lambda pair: None if pair[1] in keep else f"error_type:{pair[1]}")
    return [item for item, _ in parsed]
