"""Rule paired_comparisons (workflow/rules/scoreboard.smk): every pair of a scored study's models on every
task and pooled over the study's tasks (benchval.evaluation.paired), from the calibrated option scores."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pandas as pd

from benchval.evaluation.paired import PairedSettings, paired_table
from benchval.evaluation.paired_inputs import tidy_from_calibrated
from benchval.tasks.items import read_items

log = logging.getLogger(__name__)


def study_items(pairs: list[list[str]], task_items: dict[str, str], calibrated: list[str]) -> pd.DataFrame:
    """The tidy item frame of a study: ``pairs`` [model, task] aligned with the ``calibrated`` files."""
    items = {task: read_items(path) for task, path in task_items.items()}
    frames = [
        tidy_from_calibrated(items[task], pd.read_parquet(path), model, task)
        for (model, task), path in zip(pairs, calibrated)
    ]
    return pd.concat(frames, ignore_index=True)


def write_paired_comparisons(
    study: str, pairs: list[list[str]], task_items: dict[str, str], calibrated: list[str], bootstrap: dict, output
) -> pd.DataFrame:
    """Every pair of models (the study's order) on every task and pooled; written to ``output``."""
    frame = study_items(pairs, task_items, calibrated)
    models = list(dict.fromkeys(model for model, _ in pairs))
    settings = PairedSettings(int(bootstrap["seed"]), int(bootstrap["n_bootstrap"]), float(bootstrap["ci_level"]))
    table = paired_table(frame, list(itertools.combinations(models, 2)), settings, source=f"study {study}")
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(output, index=False)
    pooled = table[table["task"] == "(pooled)"]
    log.info(
        "paired comparisons of %s: %d model pairs x %d tasks; pooled difference interval excludes 0 for %d of %d pairs",
        study,
        len(pooled),
        frame["task"].nunique(),
        int(((pooled["ci_low"] > 0) | (pooled["ci_high"] < 0)).sum()),
        len(pooled),
    )
    return table
