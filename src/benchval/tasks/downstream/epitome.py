"""EPITOME False Beliefs and Indirect Requests (Jones, Trott & Bergen, 2024), mode ``mc``.

Unfiltered, as in the paper (appendix B), except that rows that cannot form an item are
reported and left out (never dropped silently):

* False Beliefs: the passage ends in "<final sentence stem> [MASK]."; the context is the
  passage up to the mask and the options are the two locations, `` start`` then `` end``
  (the correct one is ``critical_a``: ``start`` on false-belief rows, ``end`` on true-belief
  rows, so both option positions occur as the correct class). Reasons: ``missing_passage``,
  ``mask_not_final`` (no single "[MASK]" followed only by punctuation), ``missing_locations``.
* Indirect Requests: the passage, the speaker's critical utterance and the question ("Do you
  think he is making a request?") form the context; the options are `` Yes`` / `` No``.
  Reasons: ``missing_critical_utterance``, ``missing_critical_question``, ``missing_passage``.

A label that is none of the options is a :class:`TaskDataError`, not a drop.
"""

from __future__ import annotations

import re

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import option_text
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import read_csv

MASK = "[MASK]"
FB_COLUMNS = ("item_id", "passage", "condition", "start", "end", "critical_a")
IR_COLUMNS = ("item", "passage", "speaker_knowledge", "knowledge_cue", "critical_q", "critical_a", "critical_utterance")


def tidy_passage(text: str) -> str:
    """Strip each line and collapse runs of blank lines to one paragraph break."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def false_belief_problem(row) -> str | None:
    """Why a False Beliefs row cannot form an item, or None."""
    passage = row.text("passage")
    if not passage:
        return "missing_passage"
    if passage.count(MASK) != 1 or re.search(r"\w", passage.split(MASK, 1)[1]):
        return "mask_not_final"
    if not row.text("start") or not row.text("end"):
        return "missing_locations"
    return None


def false_belief_item(row) -> Item:
    start, end, answer = row.text("start"), row.text("end"), row.text("critical_a")
    locations = [start, end]
    if answer not in locations or start == end:
        raise TaskDataError(row.path, row.line, f"critical_a {answer!r} is not exactly one of start/end {locations}")
    return Item(
        id=f"epitome_fb-{row.text('item_id')}",
        context=tidy_passage(row.text("passage").split(MASK, 1)[0]).rstrip(),
        options=[option_text(location) for location in locations],
        label=locations.index(answer),
        source_row=row.line,
    )


@register("epitome_false_belief")
def epitome_false_belief(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, [])
    rows = list(read_csv(inp.file("false_belief"), required=FB_COLUMNS))
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("unusable_rows", rows, false_belief_problem)
    return [false_belief_item(row) for row in rows]


def indirect_request_problem(row) -> str | None:
    """Why an Indirect Requests row cannot form an item, or None."""
    if not row.text("passage"):
        return "missing_passage"
    if not row.text("critical_utterance"):
        return "missing_critical_utterance"
    if not row.text("critical_q"):
        return "missing_critical_question"
    return None


def indirect_request_item(row, template: str, answers: list[str]) -> Item:
    answer = row.text("critical_a")
    if answer not in answers:
        raise TaskDataError(row.path, row.line, f"critical_a {answer!r} is not one of {answers}")
    context = (
        template.replace("{passage}", tidy_passage(row.text("passage")))
        .replace("{utterance}", row.text("critical_utterance"))
        .replace("{question}", row.text("critical_q"))
    )
    parts = [row.text(key) for key in ("item", "speaker_knowledge", "knowledge_cue")]
    return Item(
        id="epitome_ir-" + "-".join(parts),
        context=context.rstrip(),
        options=[option_text(text) for text in answers],
        label=answers.index(answer),
        source_row=row.line,
    )


@register("epitome_indirect_request")
def epitome_indirect_request(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["context_template", "answers"])
    template = option(inp, "context_template", "{passage}\n\n{utterance}\n\nQuestion: {question}\nAnswer:")
    answers = [str(answer) for answer in option(inp, "answers", ["Yes", "No"])]
    rows = list(read_csv(inp.file("indirect_request"), required=IR_COLUMNS))
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("unusable_rows", rows, indirect_request_problem)
    return [indirect_request_item(row, template, answers) for row in rows]
