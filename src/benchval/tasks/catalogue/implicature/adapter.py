"""IMPPRES Implicature (Jeretič et al., 2020), adapter ``imppres_implicature``: the gold label is ``gold_label_prag``
unless ``label_field`` says otherwise; items and filters: :func:`benchval.tasks.downstream.imppres.imppres_items`."""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, register
from benchval.tasks.downstream.imppres import imppres_items


@register("imppres_implicature")
def imppres_implicature(inp: AdapterInput, report: FilterReport) -> list[Item]:
    return imppres_items(inp, report, "imppres_impl", "gold_label_prag")
