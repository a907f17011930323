"""EPITOME False Beliefs (Jones, Trott & Bergen, 2024), mode ``mc``.

Unfiltered, as in the paper (appendix B), except that rows that cannot form an item are
reported and left out (never dropped silently): the passage ends in "<final sentence stem> [MASK].";
the context is the passage up to the mask and the options are the two locations, `` start`` then
`` end`` (the correct one is ``critical_a``: ``start`` on false-belief rows, ``end`` on true-belief
rows, so both option positions occur as the correct class). Reasons: ``missing_passage``,
``mask_not_final`` (no single "[MASK]" followed only by punctuation), ``missing_locations``.

A label that is none of the options is a :class:`TaskDataError`, not a drop.
"""

from __future__ import annotations

import re

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import option_text, tidy_passage
from benchval.tasks.options import check_options
from benchval.tasks.rawfiles import read_csv

MASK = "[MASK]"
FB_COLUMNS = ("item_id", "passage", "condition", "start", "end", "critical_a")


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
