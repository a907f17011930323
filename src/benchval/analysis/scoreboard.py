"""The scoreboard of a scored study: every model's accuracy and macro-F1 on every task, with
item-bootstrap confidence intervals and the chance level of each (docs/analysis.md, "Scoreboard").

Per (model, task) it reads what the scoring and evaluation already wrote (docs/data-contract.md):
the items, the option scores and the reported metrics. Predictions are recomputed from the scores
with the study's normalisation (:func:`benchval.evaluation.metrics.predict`) and must reproduce the reported
value (else a clear error: the inputs are out of step). Then:

* CI: percentile interval at ``ci_level`` over ``n_bootstrap`` item resamples
  (:mod:`benchval.evaluation.item_bootstrap`), seeded by ``seed`` and the task name, so every model of a task
  is resampled with the same items (paired across models).
* chance: a uniform random guesser over each item's options (:mod:`benchval.analysis.chance`): accuracy =
  mean of 1 / n_options, macro-F1 = its exact expected macro-F1 (with an error bound where some
  option index is never a label; simulated, seeded by ``seed`` and the task, with 3 standard
  errors as the bound where that bound is loose).

No model is rerun: the job costs a few milliseconds per (model, task).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchval.evaluation import metrics as metric_functions
from benchval.analysis.chance import chance_accuracy, chance_macro_f1, chance_macro_f1_method
from benchval.evaluation.item_bootstrap import bootstrap_metric, item_rng

SCOREBOARD_COLUMNS = [
    "model",
    "family",
    "size_b",
    "task",
    "label",
    "role",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "chance",
    "chance_error_bound",
    "chance_method",
    "ci_above_chance",
    "n_items",
    "n_boot_valid",
    "note",
]


@dataclass(frozen=True)
class ScoreboardSettings:
    seed: int
    n_bootstrap: int
    ci_level: float
    normalisation: str


@dataclass(frozen=True)
class ModelInfo:
    name: str
    family: str
    size_b: float


def chance_level(
    metric: str, labels: np.ndarray, n_options: np.ndarray, rng: np.random.Generator
) -> tuple[float, float]:
    """(chance level, bound on its error) of ``metric`` for uniform guessing (``rng``: for a simulated
    macro-F1 where the closed form's bound is loose, see :mod:`benchval.analysis.chance`)."""
    if metric == "accuracy":
        return chance_accuracy(n_options), 0.0
    return chance_macro_f1(labels, n_options, rng)


def chance_method(metric: str, labels: np.ndarray, n_options: np.ndarray) -> str:
    """How :func:`chance_level` computed the value (accuracy's is always exact)."""
    return "exact" if metric == "accuracy" else chance_macro_f1_method(labels, n_options)


def percentile_interval(replicates: np.ndarray, level: float) -> tuple[float, float, int]:
    """(low, high, number of finite replicates) of a percentile interval."""
    valid = replicates[np.isfinite(replicates)]
    if valid.size == 0:
        return np.nan, np.nan, 0
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(valid, [tail, 1.0 - tail])
    return float(low), float(high), int(valid.size)


def _reported_values(reported: pd.DataFrame, source: str) -> dict[str, tuple[float, str]]:
    """{metric: (value, note)} from a metrics CSV (docs/data-contract.md section 3)."""
    missing = {"metric", "value"} - set(reported.columns)
    if missing:
        raise ValueError(f"{source}: metrics file lacks column(s) {sorted(missing)}")
    notes = reported["note"].fillna("") if "note" in reported else pd.Series("", index=reported.index)
    return {m: (float(v), str(n)) for m, v, n in zip(reported["metric"], reported["value"], notes)}


def model_task_rows(
    model: ModelInfo,
    task: dict,
    items: pd.DataFrame,
    scores: pd.DataFrame,
    meta: dict,
    reported: pd.DataFrame,
    settings: ScoreboardSettings,
    source: str = "",
) -> list[dict]:
    """Scoreboard rows (one per metric of the task) of one model on one task.

    ``task``: {name, label, role}; ``reported``: the (model, task) metrics CSV; ``source`` names
    the files in error messages.
    """
    values = _reported_values(reported, source)
    base = _row_base(model, task)
    wanted = [m for m in meta["metrics"] if m in values]
    if meta.get("unavailable") or items.empty:
        reason = f"task unavailable: {meta['unavailable']}" if meta.get("unavailable") else "task has no items"
        return [_unscored_row(base, metric, reason) for metric in wanted]
    predictions = metric_functions.predict(items, scores, meta["scoring_mode"], settings.normalisation)
    recomputed = metric_functions.compute_metrics(predictions, wanted)
    for metric in wanted:
        if not np.isclose(recomputed[metric], values[metric][0], rtol=0, atol=1e-9):
            raise ValueError(
                f"{source}: reported {metric} {values[metric][0]!r} of {model.name} on {task['name']} differs from "
                f"{recomputed[metric]!r} recomputed from the scores with normalisation "
                f"{settings.normalisation!r}: rerun rule evaluate for this pair"
            )
    labels, predicted = predictions["label"].to_numpy(int), predictions["prediction"].to_numpy(int)
    n_options = np.array([len(options) for options in items["options"]])
    return metric_rows(base, labels, predicted, n_options, {m: values[m] for m in wanted}, settings)


def metric_rows(
    base: dict,
    labels: np.ndarray,
    predicted: np.ndarray,
    n_options: np.ndarray | None,
    values: dict[str, tuple[float, str]],
    settings: ScoreboardSettings,
) -> list[dict]:
    """One row per metric of ``values`` ({metric: (value, note)}) of one model on one task (``base``: the row's
    model and task columns): the item-bootstrap interval and the chance level. ``n_options`` None: the items
    have no options (a generative task, exact match), so there is no chance level."""
    rows = []
    for metric, (value, note) in values.items():
        replicates = bootstrap_metric(
            metric, labels, predicted, item_rng(settings.seed, "scoreboard", base["task"]), settings.n_bootstrap
        )
        low, high, n_valid = percentile_interval(replicates, settings.ci_level)
        if n_options is None:
            chance, bound, method = np.nan, np.nan, ""
        else:
            chance, bound = chance_level(metric, labels, n_options, item_rng(settings.seed, "chance", base["task"]))
            method = chance_method(metric, labels, n_options)
        rows.append(
            {
                **base,
                "metric": metric,
                "value": value,
                "ci_low": low,
                "ci_high": high,
                "chance": chance,
                "chance_error_bound": bound,
                "chance_method": method,
                "ci_above_chance": None if n_options is None else bool(low > chance + bound),
                "n_items": len(labels),
                "n_boot_valid": n_valid,
                "note": note,
            }
        )
    return rows


def _unscored_row(base: dict, metric: str, reason: str) -> dict:
    """The row of a metric on a task that has no items here: every figure missing, with the reason."""
    return {
        **base,
        "metric": metric,
        "value": np.nan,
        "ci_low": np.nan,
        "ci_high": np.nan,
        "chance": np.nan,
        "chance_error_bound": np.nan,
        "chance_method": "",
        "ci_above_chance": None,
        "n_items": 0,
        "n_boot_valid": 0,
        "note": reason,
    }


def prediction_rows(
    model: ModelInfo, task: dict, predictions: pd.DataFrame, metrics: list[str], settings: ScoreboardSettings
) -> list[dict]:
    """Scoreboard rows of one model on one task from its documents' predictions (``id``, ``label``,
    ``prediction``, and ``n_options`` where the items have options): an lm-eval study's, read from its samples
    (benchval.lmeval.importer.study_predictions). The value is :func:`benchval.evaluation.metrics.compute_metrics`
    of the predictions, the study's own definition (its score table holds the same number)."""
    base = _row_base(model, task)
    labels, predicted = predictions["label"].to_numpy(int), predictions["prediction"].to_numpy(int)
    n_options = predictions["n_options"].to_numpy(int) if "n_options" in predictions else None
    values = metric_functions.compute_metrics(predictions, metrics)
    notes = "" if n_options is not None else "generative task (exact match): no options, no chance level"
    return metric_rows(base, labels, predicted, n_options, {m: (values[m], notes) for m in metrics}, settings)


def scoreboard_table(rows: list[dict]) -> pd.DataFrame:
    """The table, ordered as given (models and tasks in the study's order)."""
    return pd.DataFrame.from_records(rows, columns=SCOREBOARD_COLUMNS)


def _row_base(model: ModelInfo, task: dict) -> dict:
    """The model and task columns every scoreboard row of one model on one task starts with."""
    return {
        "model": model.name,
        "family": model.family,
        "size_b": model.size_b,
        "task": task["name"],
        "label": task["label"],
        "role": task["role"],
    }
