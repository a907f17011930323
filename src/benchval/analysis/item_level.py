"""Item-level predictions of a scored study, recomputed from the stored per-option log-likelihoods
(results/scores/, docs/data-contract.md): no model reruns. The normalisation and whether the N/A prior
is subtracted (calibrated tasks) are arguments, so that reliability and the specification grid can
read the same stored scores under other choices."""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis.reliability import ItemResults
from benchval.evaluation.metrics import predict

#: the scoring mode handed to predict when calibration is off (anything but "calibrated")
UNCALIBRATED = "uncalibrated"


def task_predictions(
    items: pd.DataFrame, scores: dict[str, pd.DataFrame], meta: dict, normalisation: str, calibrate: bool = True
) -> ItemResults | None:
    """The labels and each model's predictions on one task (None if the task has no items).

    ``scores``: model -> its option scores of the task; ``calibrate=False`` drops the prior of a
    calibrated task (uncalibrated tasks are unaffected)."""
    if meta.get("unavailable") or items.empty:
        return None
    mode = meta["scoring_mode"] if calibrate else UNCALIBRATED
    predictions = {model: predict(items, frame, mode, normalisation) for model, frame in scores.items()}
    labels = items["label"].to_numpy(int)
    return ItemResults(labels, {model: p["prediction"].to_numpy(int) for model, p in predictions.items()})


def n_options(items: pd.DataFrame) -> np.ndarray:
    return np.array([len(options) for options in items["options"]])
