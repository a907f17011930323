"""The adapter ``winogrande``: WinoGrande dev, partial scoring (README.md beside this file); the
helpers it shares with WinoWhat are in :mod:`benchval.tasks.commonsense`."""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.commonsense import (
    ONE_BASED_TWO,
    blank_item,
    labelled_rows,
    note_repairs,
)
from benchval.tasks.options import check_options
from benchval.tasks.rawfiles import parse_label


@register("winogrande")
def winogrande(source: AdapterInput, report: FilterReport) -> list[Item]:
    """WinoGrande dev (``data`` = winogrande_dev.jsonl, ``labels`` = dev-labels.lst), partial scoring."""
    check_options(source, [])
    items, repaired = [], 0
    for row, label in labelled_rows(source, ONE_BASED_TWO):
        sentence, first, second = row.strings("sentence", "option1", "option2")
        if "answer" in row.data and parse_label(row.data["answer"], ONE_BASED_TWO, row.path, row.line) != label:
            raise TaskDataError(
                row.path,
                row.line,
                f"answer {row.data['answer']!r} disagrees with {source.file('labels').name} (label index {label})",
            )
        item, fixed = blank_item(
            f"{source.task}-dev-{row.line:05d}",
            sentence,
            [first, second],
            label,
            source.scoring_mode or "partial",
            row.path,
            row.line,
        )
        items.append(item)
        repaired += fixed
    note_repairs(report, repaired, source.file("data"))
    return items
