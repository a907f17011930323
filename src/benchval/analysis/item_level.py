"""Item-level predictions of a scored study, recomputed from the stored per-option log-likelihoods
(results/scores/, docs/data-contract.md): no model reruns. The normalisation and whether the N/A prior
is subtracted (calibrated tasks) are arguments, so that reliability and the specification grid can
read the same stored scores under other choices."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchval.analysis.reliability import ItemResults
from benchval.analysis.table import StudyTable
from benchval.evaluation.metrics import compute_metrics, predict
from benchval.evaluation.item_bootstrap import bootstrap_metric, item_rng

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


@dataclass(frozen=True)
class ScoredTask:
    """What is stored of one task of a scored study: items, meta and every model's option scores."""

    items: pd.DataFrame
    meta: dict
    scores: dict[str, pd.DataFrame]  # model -> option scores


@dataclass(frozen=True)
class Resampling:
    """The scoreboard's item-bootstrap settings (benchval.analysis.scoreboard), so its intervals recur."""

    seed: int
    n_bootstrap: int
    ci_level: float


def standing_rows(task: str, stored: ScoredTask, results: ItemResults, resampling: Resampling) -> list[dict]:
    """Per model and metric: the value, its item-bootstrap interval and the chance level, with the
    scoreboard's seeds (the same resamples for every model of the task)."""
    from benchval.analysis.scoreboard import chance_level, percentile_interval

    rows = []
    for metric in stored.meta["metrics"]:
        chance_rng = item_rng(resampling.seed, "chance", task)
        chance, bound = chance_level(metric, results.labels, n_options(stored.items), chance_rng)
        for model, predicted in results.predictions.items():
            frame = pd.DataFrame({"label": results.labels, "prediction": predicted})
            rng = item_rng(resampling.seed, "scoreboard", task)
            replicates = bootstrap_metric(metric, results.labels, predicted, rng, resampling.n_bootstrap)
            low, high, _ = percentile_interval(replicates, resampling.ci_level)
            rows.append(
                {
                    "model": model,
                    "task": task,
                    "metric": metric,
                    "value": compute_metrics(frame, [metric])[metric],
                    "ci_low": low,
                    "ci_high": high,
                    "chance": chance,
                    "chance_error_bound": bound,
                }
            )
    return rows


def rescored(
    study: StudyTable, tasks: dict[str, ScoredTask], normalisation: str, calibrate: bool, resampling: Resampling
) -> tuple[StudyTable, pd.DataFrame]:
    """The study with every scored task's metrics recomputed from the stored option scores under
    ``normalisation`` / ``calibrate``, and the standing table of :func:`standing_rows`."""
    standing = []
    for task, stored in tasks.items():
        results = task_predictions(stored.items, stored.scores, stored.meta, normalisation, calibrate)
        if results is not None:
            standing += standing_rows(task, stored, results, resampling)
    standing = pd.DataFrame.from_records(
        standing, columns=["model", "task", "metric", "value", "ci_low", "ci_high", "chance", "chance_error_bound"]
    )
    recomputed = standing.set_index(["model", "task", "metric"])["value"]
    keys = pd.MultiIndex.from_frame(study.scores[["model", "task", "metric"]])
    values = study.scores["value"].to_numpy(float).copy()
    found = keys.isin(recomputed.index)
    values[found] = recomputed.reindex(keys[found]).to_numpy(float)
    variant = StudyTable(scores=study.scores.assign(value=values), tasks=study.tasks, models=study.models)
    return variant, standing
