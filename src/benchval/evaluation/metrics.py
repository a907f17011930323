"""From per-option log-likelihoods to predictions, accuracy and macro-F1.

See docs/data-contract.md, section 3. The normalisation turns a continuation's token log-probs
into one number; the prediction is the argmax over an item's options. For the ``calibrated``
scoring mode the same normalisation is applied to both terms of the paper's Eq. 1:
score(y) = norm(log p(y | x)) - norm(log p(y | "N/A")).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from benchval.plumbing.config_error import unknown_name

METRICS = ("accuracy", "macro_f1")


def normalised_logprob(scores: pd.DataFrame, normalisation: str) -> pd.Series:
    """One number per scored request: the summed log-prob divided by the chosen length."""
    if normalisation == "sum":
        return scores["logprob_sum"].astype(float)
    length_column = {"per_token": "n_tokens", "per_char": "n_chars", "per_byte": "n_bytes"}.get(normalisation)
    if length_column is None:
        from benchval.plumbing.config import allowed_values

        raise ValueError(
            f"unknown normalisation {normalisation!r}; choose one of "
            f"{allowed_values('scoring', 'normalisation')} (workflow/schemas/scoring.schema.yaml)"
        )
    lengths = scores[length_column].astype(float)
    if (lengths <= 0).any():
        bad = scores.loc[lengths <= 0, ["item_id", "option_index"]].head(3).to_dict("records")
        raise ValueError(f"zero-length continuation cannot be normalised {normalisation}: {bad}")
    return scores["logprob_sum"].astype(float) / lengths


def option_scores(scores: pd.DataFrame, scoring_mode: str, normalisation: str) -> pd.DataFrame:
    """Per (item, option) decision score; calibrated mode subtracts the option's N/A prior."""
    scored = scores.assign(score=normalised_logprob(scores, normalisation))
    options = scored[scored["kind"] == "option"][["item_id", "option_index", "continuation", "score"]]
    if scoring_mode != "calibrated":
        return options.drop(columns="continuation").reset_index(drop=True)
    priors = scored[scored["kind"] == "prior"].set_index("continuation")["score"]
    missing = set(options["continuation"]) - set(priors.index)
    if missing:
        raise ValueError(f"calibrated scores lack N/A priors for {len(missing)} options, e.g. {sorted(missing)[:2]}")
    calibrated = options["score"].to_numpy() - priors.loc[options["continuation"]].to_numpy()
    return options.assign(score=calibrated).drop(columns="continuation").reset_index(drop=True)


def predict(items: pd.DataFrame, scores: pd.DataFrame, scoring_mode: str, normalisation: str) -> pd.DataFrame:
    """One row per item: id, label, prediction (argmax; ties go to the lower option index)."""
    return predict_from_option_scores(items, option_scores(scores, scoring_mode, normalisation))


def predict_from_option_scores(items: pd.DataFrame, per_option: pd.DataFrame) -> pd.DataFrame:
    """:func:`predict` from already calibrated option scores (columns item_id, option_index, score)."""
    expected = {(item_id, i) for item_id, options in zip(items["id"], items["options"]) for i in range(len(options))}
    found = set(zip(per_option["item_id"], per_option["option_index"]))
    if expected != found:
        raise ValueError(
            f"scores do not match items: {len(expected - found)} options unscored, {len(found - expected)} unknown"
        )
    ordered = per_option.sort_values(["item_id", "option_index"], kind="stable")
    best = ordered.loc[ordered.groupby("item_id", sort=False)["score"].idxmax()]
    prediction = best.set_index("item_id")["option_index"]
    return pd.DataFrame(
        {"id": items["id"], "label": items["label"].astype(int), "prediction": prediction.loc[items["id"]].to_numpy()}
    )


def compute_metrics(predictions: pd.DataFrame, metrics: list[str]) -> dict[str, float]:
    """Accuracy and/or macro-F1 over option classes (the classes seen as label or prediction)."""
    unknown = set(metrics) - set(METRICS)
    if unknown:
        raise ValueError(
            "; ".join(
                unknown_name("metric", name, METRICS, "benchval.evaluation.metrics.METRICS") for name in sorted(unknown)
            )
        )
    if predictions.empty:
        return {metric: float("nan") for metric in metrics}
    # imported here: sklearn.metrics costs 1.3 s of CPU, paid by every job that imports this module for
    # predict() alone (benchmarks/bench_cpu_work.py)
    from sklearn.metrics import accuracy_score, f1_score  # noqa: PLC0415

    y_true, y_pred = predictions["label"].to_numpy(), predictions["prediction"].to_numpy()
    computed = {
        "accuracy": lambda: float(accuracy_score(y_true, y_pred)),
        "macro_f1": lambda: float(f1_score(y_true, y_pred, average="macro", zero_division=0)),
    }
    return {metric: computed[metric]() for metric in metrics}


def chance_accuracy(items: pd.DataFrame) -> float:
    """Expected accuracy of uniform random guessing over each item's options."""
    return float(np.mean([1.0 / len(options) for options in items["options"]])) if len(items) else float("nan")
