"""The adapter ``goldenswag``: GoldenSwag from the Hugging Face Hub (README.md beside this file); items
as HellaSwag's (:func:`benchval.tasks.commonsense.hellaswag_item`)."""

from __future__ import annotations

from benchval.tasks import commonsense
from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskUnavailable, register
from benchval.tasks.commonsense import (
    hellaswag_item,
)
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import Row


@register("goldenswag")
def goldenswag(source: AdapterInput, report: FilterReport) -> list[Item]:
    """GoldenSwag (Chizhov et al. 2025): Hugging Face dataset ``PleIAs/GoldenSwag`` only.

    Options: ``hub_id`` (PleIAs/GoldenSwag), ``split`` (validation). Without the ``datasets``
    library or the Hub, raises :class:`TaskUnavailable` (the workflow then records a skip).
    """
    check_options(source, ["hub_id", "split"])
    hub_id = str(option(source, "hub_id", "PleIAs/GoldenSwag"))
    split = str(option(source, "split", "validation"))
    try:
        rows = commonsense.load_hub_rows(hub_id, split)  # patched in tests
    except ImportError as error:
        raise TaskUnavailable(
            source.task, f"needs the Python package 'datasets' to load {hub_id} from the Hugging Face Hub ({error})"
        ) from error
    except OSError as error:
        raise TaskUnavailable(
            source.task,
            f"needs the Hugging Face Hub (dataset {hub_id}, split {split}), which is unreachable here: {error}",
        ) from error
    where = f"hf://datasets/{hub_id} ({split})"
    return [
        hellaswag_item(f"{source.task}-{split}-{index:05d}", Row(where, index, row))
        for index, row in enumerate(rows, start=1)
    ]
