"""IMPPRES Presupposition (Jeretič et al., 2020), adapter ``imppres_presupposition``: the gold label is ``gold_label``
unless ``label_field`` says otherwise; items and filters: :func:`benchval.tasks.downstream.imppres.imppres_items`."""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, register
from benchval.tasks.downstream.imppres import imppres_items


@register("imppres_presupposition")
def imppres_presupposition(inp: AdapterInput, report: FilterReport) -> list[Item]:
    return imppres_items(inp, report, "imppres_presup", "gold_label")
