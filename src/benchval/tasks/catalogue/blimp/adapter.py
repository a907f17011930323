"""BLiMP minimal pairs (Warstadt et al., 2020): control task, scoring mode ``minimal_pair``.

Each pair becomes an item with context ``""`` and the two sentences as options; the
grammatical sentence is the correct one. The order of the two sentences is drawn per item from
the config seed (``shuffle_options``, default true), so that both option positions occur as
the correct class and macro-F1 over positions is not degenerate (with the good sentence
always first, every correct prediction would be class 0).

Options: ``paradigms`` (file keys of the dataset to read, e.g. ``[adjunct_island]``; the task's
items are their union), ``shuffle_options``.
"""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import shuffle_options
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import read_jsonl


def blimp_item(paradigm: str, row, seed: int, shuffle: bool) -> Item:
    """One minimal pair as an item; ids are ``blimp-<paradigm>-<pairID>``."""
    good, bad = row.text("sentence_good"), row.text("sentence_bad")
    if not good or not bad:
        raise TaskDataError(row.path, row.line, "empty sentence_good or sentence_bad")
    if good == bad:
        raise TaskDataError(row.path, row.line, "sentence_good equals sentence_bad")
    item_id = f"blimp-{paradigm}-{row.field('pairID')}"
    options, label = [good, bad], 0
    if shuffle:
        options, label = shuffle_options(options, 0, seed, item_id)
    return Item(id=item_id, context="", options=options, label=label, source_row=row.line)


@register("blimp")
def blimp(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["paradigms", "shuffle_options"])
    shuffle = bool(option(inp, "shuffle_options", True))
    items = []
    for paradigm in option(inp, "paradigms"):
        items += [blimp_item(paradigm, row, inp.seed, shuffle) for row in read_jsonl(inp.file(paradigm))]
    report.record("read", len(items), len(items), {})
    return items
