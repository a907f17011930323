"""Metrics recomputed from samples rows (:func:`benchval.lmeval.samples.read_samples`).

* **Re-normalisation** (``sum``, ``per_char``, ``per_byte``, ``per_token``): an option's decision score
  is its summed log-likelihood divided by its length, as this project scores its own runs
  (:func:`benchval.evaluation.metrics.option_scores`). Lengths are those the record logs (this
  project's records), else, as lm-eval counts them, the characters / UTF-8 bytes of the choice
  without the task's ``target_delimiter`` (so that ``sum`` reproduces lm-eval's ``acc``,
  ``per_char`` its ``acc_norm`` and ``per_byte`` its ``acc_bytes``), and the continuation's tokens
  as lm-eval's ``HFLM._encode_pair`` splits context and continuation, given the model's tokenizer
  folder. Calibrated tasks (this project's records with N/A priors) subtract the prior's score.
* **Accuracy and macro-F1**: :func:`benchval.evaluation.metrics.compute_metrics`. Macro-F1 is ours
  (mean F1 over the option classes seen as label or prediction); lm-eval's ``f1`` is the binary F1
  of option 1 (``sklearn.metrics.f1_score`` default), recomputed by :func:`lmeval_f1` only to check
  a run against its own figures.
* **Generative tasks** (``generate_until``, metric ``exact_match``): each answer is compared with its
  gold text as lm-eval's ``exact_match`` does (:func:`exact_match`: the metric's ``regexes_to_ignore``,
  ``ignore_case``, ``ignore_punctuation``, ``ignore_numbers`` from the task's config); the item's
  prediction is 1 (match) or 0 against a label of 1, so that accuracy is the exact-match rate.
  Macro-F1 has no meaning there and is not computed.
* **Item-bootstrap intervals**: percentile intervals over item resamples
  (:func:`benchval.evaluation.item_bootstrap.bootstrap_metric`), seeded per task so that models share them.
"""

from __future__ import annotations

import math
import re
import string

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from benchval.evaluation.metrics import compute_metrics, option_scores, predict_from_option_scores
from benchval.evaluation.item_bootstrap import bootstrap_metric
from benchval.lmeval.errors import LmEvalImportError

NORMALISATIONS = ("sum", "per_char", "per_byte", "per_token")


def _choice(continuation: str, delimiter: str) -> str:
    return continuation[len(delimiter) :] if delimiter and continuation.startswith(delimiter) else continuation


def continuation_tokens(tokenizer, context: str, continuation: str) -> int:
    """Tokens of ``continuation`` after ``context`` as lm-eval's HFLM encodes the pair (trailing
    spaces of the context move to the continuation; the continuation is the tail of the whole)."""
    spaces = len(context) - len(context.rstrip())
    if spaces:
        context, continuation = context[:-spaces], context[-spaces:] + continuation
    whole = tokenizer(context + continuation, add_special_tokens=False)["input_ids"]
    return len(whole) - len(tokenizer(context, add_special_tokens=False)["input_ids"])


def with_lengths(rows: pd.DataFrame, target_delimiter: str, tokenizer=None, where: str = "") -> pd.DataFrame:
    """``rows`` with every missing n_chars / n_bytes (and, given ``tokenizer``, n_tokens) filled in."""
    rows = rows.copy()
    choices = [_choice(c, target_delimiter) for c in rows["continuation"]]
    chars, nbytes = (
        pd.Series([len(c) for c in choices], index=rows.index),
        pd.Series([len(c.encode("utf-8")) for c in choices], index=rows.index),
    )
    rows["n_chars"] = rows["n_chars"].where(rows["n_chars"].notna(), chars)
    rows["n_bytes"] = rows["n_bytes"].where(rows["n_bytes"].notna(), nbytes)
    missing = rows["n_tokens"].isna()
    if missing.any() and tokenizer is not None:
        rows.loc[missing, "n_tokens"] = [
            continuation_tokens(tokenizer, ctx, cont)
            for ctx, cont in zip(rows.loc[missing, "context"], rows.loc[missing, "continuation"])
        ]
    return rows


def items_frame(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per document: id (the doc id as text), label, options (continuations)."""
    options = rows[rows["kind"] == "option"]
    grouped = options.groupby("doc_id", sort=False)
    return pd.DataFrame(
        {
            "id": [str(doc_id) for doc_id in grouped.groups],
            "label": grouped["target"].first().astype(int).to_numpy(),
            "options": [list(g["continuation"]) for _, g in grouped],
        }
    )


def predictions(rows: pd.DataFrame, normalisation: str, scoring_mode: str, where: str = "") -> pd.DataFrame:
    """id, label, prediction of every document under ``normalisation`` (see the module docstring)."""
    if normalisation not in NORMALISATIONS:
        raise LmEvalImportError(f"{where}: normalisation {normalisation!r} is not one of {NORMALISATIONS}")
    length = {"per_token": "n_tokens", "per_char": "n_chars", "per_byte": "n_bytes"}.get(normalisation)
    if length and rows[length].isna().any():
        line = int(rows.loc[rows[length].isna(), "line"].iloc[0])
        raise LmEvalImportError(
            f"{where}: line {line}: no {length} for {normalisation} normalisation"
            + (" (give the model's tokenizer folder under samples.tokenizers)" if length == "n_tokens" else "")
        )
    if scoring_mode == "calibrated" and not (rows["kind"] == "prior").any():
        raise LmEvalImportError(f"{where}: calibrated task without the N/A prior requests (benchval.prior)")
    scores = rows.assign(item_id=rows["doc_id"].astype(str))
    if scoring_mode != "calibrated":
        scores = scores[scores["kind"] == "option"]
    else:
        priors = scores[scores["kind"] == "prior"].drop_duplicates("continuation")
        scores = pd.concat([scores[scores["kind"] == "option"], priors])
    try:
        per_option = option_scores(scores, scoring_mode, normalisation)
    except ValueError as error:
        raise LmEvalImportError(f"{where}: {error}") from error
    return predict_from_option_scores(items_frame(rows), per_option)


def exact_match(responses: list[str], targets: list[str], options: dict) -> np.ndarray:
    """1.0 where an answer equals its gold text after lm-eval's ``exact_match`` options, else 0.0."""

    def normal(text: str) -> str:
        for pattern in options.get("regexes_to_ignore") or []:
            text = re.sub(pattern, "", text)
        if options.get("ignore_case"):
            text = text.lower()
        if options.get("ignore_punctuation"):
            text = text.translate(str.maketrans("", "", string.punctuation))
        if options.get("ignore_numbers"):
            text = text.translate(str.maketrans("", "", string.digits))
        return text

    return np.array([float(normal(r) == normal(t)) for r, t in zip(responses, targets)])


def generation_predictions(rows: pd.DataFrame, options: dict) -> pd.DataFrame:
    """id, label (1), prediction (1: exact match, 0: not) of every document of a generative task."""
    matched = exact_match(list(rows["response"]), list(rows["target"]), options)
    predicted = pd.DataFrame(
        {"id": rows["doc_id"].astype(str).to_numpy(), "label": 1, "prediction": matched.astype(int)}
    )
    predicted.attrs["generative"] = True
    return predicted


def recompute_metrics(predicted: pd.DataFrame, metrics: list[str]) -> dict[str, float]:
    """Accuracy and / or our macro-F1 of :func:`predictions`."""
    return compute_metrics(predicted, metrics)


def lmeval_f1(figures: pd.DataFrame) -> float:
    """lm-eval's ``f1`` (binary F1 of option 1 over (gold, argmax of the summed log-likelihoods))."""
    return float(f1_score(figures["label"], figures["pred"]))


def item_interval(
    predicted: pd.DataFrame, metric: str, rng: np.random.Generator, n_boot: int, level: float = 0.95
) -> tuple[float, float]:
    """Percentile interval of ``metric`` over ``n_boot`` item resamples (missing below two items)."""
    if len(predicted) < 2 or n_boot <= 0:
        return math.nan, math.nan
    labels, predicted_labels = predicted["label"].to_numpy(int), predicted["prediction"].to_numpy(int)
    replicates = bootstrap_metric(metric, labels, predicted_labels, rng, n_boot)
    tail = (1 - level) / 2
    low, high = np.quantile(replicates, [tail, 1 - tail])
    return float(low), float(high)
