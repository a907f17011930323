"""The adapter ``piqa``: PIQA validation (README.md beside this file)."""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, register
from benchval.tasks.commonsense import (
    PIQA_PROMPT,
    ZERO_BASED_TWO,
    answer_text,
    labelled_rows,
)
from benchval.tasks.options import check_options


@register("piqa")
def piqa(source: AdapterInput, report: FilterReport) -> list[Item]:
    """PIQA validation (``data`` = valid.jsonl, ``labels`` = valid-labels.lst, 0-based)."""
    check_options(source, [])
    items = []
    for row, label in labelled_rows(source, ZERO_BASED_TWO):
        goal, sol1, sol2 = row.strings("goal", "sol1", "sol2")
        items.append(
            Item(
                f"{source.task}-val-{row.line:05d}",
                PIQA_PROMPT.format(goal=goal.strip()),
                [answer_text(sol1), answer_text(sol2)],
                label,
                row.line,
            )
        )
    return items
