"""Rule items_responses: one ``items.sources`` entry's responses -> results/items/{source}/responses.parquet
(+ ``.filters.json``), through the readers of :mod:`benchval.items.readers`."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from benchval.items import readers
from benchval.plumbing.config_error import unknown_name

log = logging.getLogger(__name__)


def read_source(source: dict, mirror: str | None) -> pd.DataFrame:
    """The responses of one ``items.sources`` entry (``reader`` names the reader; ``{mirror}`` in a path)."""
    reader = source["reader"]
    path = str(source.get("path", "")).replace("{mirror}", str(mirror))
    if reader == readers.SOURCE_NLU:
        return readers.read_nlu_test_sets(path, source["datasets"])
    if reader == readers.SOURCE_MMLU_PRO:
        return readers.read_mmlu_pro_outputs(path, source["null_pred"])
    files = sorted(str(p) for pattern in source["paths"] for p in Path(".").glob(pattern))
    if reader == "scores":
        return readers.read_scores(files)
    if reader == "lm_eval":
        return readers.read_lmeval_samples(files)
    known = [readers.SOURCE_NLU, readers.SOURCE_MMLU_PRO, "scores", "lm_eval"]
    raise ValueError(
        "items.sources: " + unknown_name("reader", reader, known, "benchval.items.steps.items_responses.read_source")
    )


def run_responses_step(source: dict, mirror: str | None, output: str) -> None:
    frame = read_source(source, mirror)
    readers.write_responses(frame, output)
    for entry in frame.attrs.get("filters", []):
        log.info("filter %s: %d record(s) (%s)", entry["rule"], entry["count"], entry["why"])
