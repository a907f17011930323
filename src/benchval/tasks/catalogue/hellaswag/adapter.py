"""The adapter ``hellaswag``: HellaSwag validation (README.md beside this file); the item builder it
shares with GoldenSwag is :func:`benchval.tasks.commonsense.hellaswag_item`."""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, register
from benchval.tasks.commonsense import (
    hellaswag_item,
)
from benchval.tasks.options import check_options
from benchval.tasks.rawfiles import read_jsonl


@register("hellaswag")
def hellaswag(source: AdapterInput, report: FilterReport) -> list[Item]:
    """HellaSwag validation (``data`` = hellaswag_val.jsonl)."""
    check_options(source, [])
    return [hellaswag_item(f"{source.task}-val-{row.line:05d}", row) for row in read_jsonl(source.file("data"))]
