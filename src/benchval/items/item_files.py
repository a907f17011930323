"""The item studies' files of a run: their folder, the raw files a source reads and the final files the main
command builds (docs/items.md)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from benchval.items.readers import SOURCE_MMLU_PRO, SOURCE_NLU
from benchval.plumbing.folders import RESULTS

ITEMS = f"{RESULTS}/items"
ITEM_PAIRED_FILES = ("paired_comparisons.csv", "rank_resolution.csv")  # rule items_paired, per source
ITEM_FIGURE_STEMS = ("validity_curve", "item_map", "snr_validity")  # rule items_figures, per study


def item_outputs(config: Mapping, mirror: Path | None) -> list[str]:
    """The item studies' report (with the open_llm re-evaluation table), paired comparisons and figures (the
    default target includes them); none without an `items:` section's studies or without a mirror (the
    sources are mirror files)."""
    items = config.get("items") or {}
    if not items.get("studies"):
        return []
    if mirror is None:
        print("items: mirror: null - the item studies are not built", file=sys.stderr)
        return []
    formats = config["analysis"]["figures"]["formats"]
    paired = [f"{ITEMS}/{source}/{name}" for source in items["sources"] for name in ITEM_PAIRED_FILES]
    return [f"{ITEMS}/report.md", f"{ITEMS}/reevaluation_snr.csv", *paired] + [
        f"{ITEMS}/{study}/figures/{stem}.{ext}"
        for study in items["studies"]
        for stem in ITEM_FIGURE_STEMS
        for ext in formats
    ]


def source_files(source: Mapping, folder: str | Path) -> list[str]:
    """The raw files the reader of ``source`` (an entry of config ``items.sources``) reads, ``folder`` its
    `path` with the mirror filled in: an edit of one reruns its responses (rule items_responses)."""
    folder = Path(folder)
    if source["reader"] == SOURCE_NLU:
        return [str(folder / f"{dataset}_irt_all_coded.csv") for dataset in source["datasets"]]
    if source["reader"] == SOURCE_MMLU_PRO:
        return sorted(str(p) for p in folder.glob("model_outputs_*_5shots.zip"))
    return sorted(str(p) for pattern in source["paths"] for p in Path(".").glob(pattern))
