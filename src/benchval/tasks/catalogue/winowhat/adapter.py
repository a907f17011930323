"""The adapter ``winowhat``: WinoWhat's paraphrases (README.md beside this file); the blank-splitting
helpers it shares with WinoGrande are in :mod:`benchval.tasks.commonsense`."""

from __future__ import annotations

from collections import Counter

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.commonsense import (
    ONE_BASED_TWO,
    blank_item,
    note_repairs,
)
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import parse_label, read_csv


WINOWHAT_OPTIONS = ("sentence_column", "only_in_original_experiment")


@register("winowhat")
def winowhat(source: AdapterInput, report: FilterReport) -> list[Item]:
    """WinoWhat (``data`` = WinoWhat.csv): the paraphrase, whose blank is (nearly always) at the end.

    Scoring mode ``mc`` (default in the catalogue) scores filler + the rest of the sentence after
    the context; ``partial`` scores the shared rest (mostly just "."), and drops items with an
    empty rest. Options: ``sentence_column`` (``paraphrased_sentence``; ``sentence`` gives the
    original WinoGrande sentences of the same rows), ``only_in_original_experiment`` (true: keep
    rows flagged 1).
    """
    check_options(source, WINOWHAT_OPTIONS)
    column = str(option(source, "sentence_column", "paraphrased_sentence"))
    only_flagged = bool(option(source, "only_in_original_experiment", True))
    mode = source.scoring_mode or "mc"
    path = source.file("data")
    rows = read_csv(path, [column, "option1", "option2", "answer", "in_original_experiment"])
    items, flags, repaired = [], {}, 0
    for row_number, row in enumerate(rows, start=1):
        label = parse_label(row.data["answer"], ONE_BASED_TWO, path, row.line)
        flag = row.data["in_original_experiment"].strip()
        if flag not in ("0", "1"):
            raise TaskDataError(path, row.line, f"in_original_experiment {flag!r} is not 0 or 1")
        item, fixed = blank_item(
            f"{source.task}-{row_number:05d}",
            row.data[column],
            [row.data["option1"], row.data["option2"]],
            label,
            mode,
            path,
            row.line,
        )
        item.source_row = row_number
        items.append(item)
        flags[item.id], repaired = flag, repaired + fixed
    note_repairs(report, repaired, path)
    repeats = sum(count - 1 for count in Counter(row.data["sentence"] for row in rows).values() if count > 1)
    if repeats:
        report.note(f"{repeats} WinoGrande sentence(s) appear more than once with different paraphrases; all kept")
    if only_flagged:
        items = report.apply(
            "in_original_experiment",
            items,
            lambda item: None if flags[item.id] == "1" else "in_original_experiment = 0",
        )
    if mode == "partial":
        items = report.apply(
            "partial_target",
            items,
            lambda item: None if item.target else "blank at the very end: no shared continuation to score",
        )
    return items
