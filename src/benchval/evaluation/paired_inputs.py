"""Item-level results in the tidy frame of :mod:`benchval.evaluation.paired` (``source, task, item_id,
model, correct``) from the files this project writes and imports:

* :func:`tidy_from_calibrated`: a scored (model, task)'s calibrated option scores
  (``results/calibrated/{model}/{task}.parquet``) and the task's items: correct = the argmax option is the
  label (:func:`benchval.evaluation.metrics.predict_from_option_scores`, ties to the lower index, as the
  metrics and the scoreboard decide);
* :func:`tidy_from_scores`: the same from the raw option scores (``results/scores/``) and a normalisation;
* :func:`tidy_from_predictions`: the same from an lm-eval study's predictions (its samples, read as the study
  reads them).
"""

from __future__ import annotations

import pandas as pd

from benchval.evaluation.metrics import predict, predict_from_option_scores


def _tidy(predictions: pd.DataFrame, source: str, task: str, model: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "source": source,
            "task": task,
            "item_id": predictions["id"].astype(str).to_numpy(),
            "model": model,
            "correct": (predictions["label"] == predictions["prediction"]).astype(float).to_numpy(),
        }
    )


def tidy_from_predictions(predictions: pd.DataFrame, model: str, task: str, source: str) -> pd.DataFrame:
    """The tidy rows of one model on one task from its documents' ``id``, ``label`` and ``prediction`` (an
    lm-eval study's, benchval.lmeval.importer.study_predictions)."""
    return _tidy(predictions, source, task, model)


def tidy_from_calibrated(
    items: pd.DataFrame, calibrated: pd.DataFrame, model: str, task: str, source: str = "benchval"
) -> pd.DataFrame:
    """The tidy rows of one model on one task from its calibrated option scores."""
    if items.empty:
        return _tidy(pd.DataFrame({"id": [], "label": [], "prediction": []}), source, task, model)
    return _tidy(predict_from_option_scores(items, calibrated), source, task, model)


def tidy_from_scores(
    items: pd.DataFrame, scores: pd.DataFrame, scoring_mode: str, normalisation: str, model: str, task: str
) -> pd.DataFrame:
    """The tidy rows of one model on one task from its raw option scores."""
    return _tidy(predict(items, scores, scoring_mode, normalisation), "benchval", task, model)
