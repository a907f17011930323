"""Calibration: per-option log-likelihoods -> one decision score per (item, option).

The step between scoring and metrics (rule ``calibrate``, docs/workflow.md): the chosen length
normalisation is applied, and for ``calibrated`` tasks the option's N/A prior is subtracted (paper
Eq. 1, :func:`benchval.evaluation.metrics.option_scores`). The output, ``results/calibrated/{model}/{task}.parquet``,
holds ``item_id, option_index, score``: the numbers the prediction takes the argmax of.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from benchval.evaluation.metrics import option_scores

COLUMNS = ["item_id", "option_index", "score"]


def calibrated_option_scores(scores: pd.DataFrame, meta: dict, normalisation: str) -> pd.DataFrame:
    """The decision score of every option (empty for a task unavailable here)."""
    if meta.get("unavailable") or scores.empty:
        return pd.DataFrame(
            {"item_id": pd.Series(dtype=str), "option_index": pd.Series(dtype="int64"), "score": pd.Series(dtype=float)}
        )
    return option_scores(scores, meta["scoring_mode"], normalisation)[COLUMNS]


def calibrate_files(scores_path: str | Path, meta_path: str | Path, normalisation: str, output: str | Path) -> int:
    """Read one (model, task)'s scores and meta, write its calibrated option scores; returns the row count."""
    meta = json.loads(Path(meta_path).read_text())
    scores = pd.read_parquet(scores_path)
    calibrated = calibrated_option_scores(scores, meta, normalisation)
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    calibrated.to_parquet(output, index=False)
    return len(calibrated)
