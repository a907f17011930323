"""lm-evaluation-harness (0.4.13) style sample records from a scores table, for comparison and reuse.

lm-evaluation-harness logs one record per document for ``multiple_choice`` tasks::

    {"doc_id", "doc", "target", "arguments": [[context, continuation], ...],
     "resps": [[[logprob_sum, is_greedy]], ...], "filtered_resps": [[logprob_sum, is_greedy], ...],
     "filter": "none", "metrics": ["acc", "acc_norm"], "doc_hash", "prompt_hash", "target_hash",
     "acc", "acc_norm"}

``acc`` is the argmax of the summed log-probs; ``acc_norm`` that of log-prob / characters of the
choice, as lm-eval computes it (``ConfigurableTask.process_results``: ``len(choice)``, the choice without
the task's ``target_delimiter`` " ", i.e. one character fewer than the continuation where the option starts
with its separating space); ``f1`` (two-option tasks only: lm-eval's ``f1`` is
``sklearn.metrics.f1_score`` with ``average="binary"``, which a task of more options cannot compute) holds
``[gold, prediction]`` by summed log-probs, as lm-eval logs it.

The results JSON (:func:`harness_figures`, ``benchval.evaluation.evaluate.lmeval_results``) carries lm-eval's
keys with lm-eval's meaning (``acc,none``, ``acc_norm,none``, ``f1,none`` where defined: the means of the
records' figures) and this project's metrics under their own names (``accuracy,none``, ``macro_f1,none``:
under the run's ``scoring.normalisation`` and calibration), never under lm-eval's keys; ``versions``,
``n-shot`` (0: every prompt is zero-shot) and ``higher_is_better`` are filled, so lm-eval's
``lm_eval.utils.make_table`` prints our files (tests/scoring/test_lmeval_round_trip.py).

Beyond lm-eval's fields, each record carries a ``benchval`` object with what lm-eval does not log
but re-scoring under this project's normalisations needs (``benchval.lmeval`` reads it back, so that
results/lmeval/ re-imported as a ``source: lm_eval`` study gives the scored study's metrics exactly):
``n_tokens``, ``n_chars``, ``n_bytes`` of each option's continuation, and for calibrated tasks
``prior``: per option (aligned with ``arguments``) the N/A prior request's ``arguments``,
``resps`` ([logprob_sum, is_greedy]) and the same three lengths.

Standard errors (:func:`lmeval_stderr`) follow lm-evaluation-harness (``lm_eval.api.metrics`` and
``evaluator_utils``): each metric ``m,none`` gets ``m_stderr,none``. For a mean of per-item values
(accuracy, ``acc``, ``acc_norm``) it is ``mean_stderr`` = sample standard deviation (ddof = 1) / sqrt(n);
for a corpus-level metric (our macro-F1, lm-eval's binary ``f1``) it is ``bootstrap_stderr`` = the sample
standard deviation of
the metric over ``bootstrap_iters`` item resamples (lm-eval's default is 100000; ours is
``scoring.lmeval_bootstrap_iters``, seeded from the config seed). ``"N/A"`` when there is at most one
item or ``bootstrap_iters`` is 0, as lm-eval writes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.evaluation.item_bootstrap import CHUNK, bootstrap_metric, resample_counts

#: lm-eval's value for a standard error it does not compute
STDERR_NOT_AVAILABLE = "N/A"
#: lm-eval's default target_delimiter: the separator before each choice, not counted in its length
TARGET_DELIMITER = " "
#: this project's metrics in the results JSON, under their own names (lm-eval's keys mean lm-eval's figures)
OWN_KEYS = {"accuracy": "accuracy,none", "macro_f1": "macro_f1,none"}
#: every figure the results JSON may hold: all are better when higher
HIGHER_IS_BETTER = {"acc": True, "acc_norm": True, "f1": True, "accuracy": True, "macro_f1": True}


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _doc(item) -> dict:
    doc = {
        "id": str(item.id),
        "context": item.context,
        "options": [str(o) for o in item.options],
        "label": int(item.label),
    }
    target = getattr(item, "target", None)
    if isinstance(target, str):
        doc["target"] = target
    return doc


def stderr_key(metric_key: str) -> str:
    """lm-eval's standard-error key of a metric key: ``acc,none`` -> ``acc_stderr,none``."""
    name, _, filter_key = metric_key.partition(",")
    return f"{name}_stderr,{filter_key or 'none'}"


def lmeval_stderr(
    metric: str, labels: np.ndarray, predictions: np.ndarray, rng: np.random.Generator, bootstrap_iters: int
) -> float | str:
    """The standard error lm-eval reports beside ``metric`` (``accuracy`` or ``macro_f1``)."""
    labels, predictions = np.asarray(labels), np.asarray(predictions)
    if len(labels) <= 1 or bootstrap_iters <= 0:
        return STDERR_NOT_AVAILABLE
    if metric == "accuracy":
        correct = (labels == predictions).astype(float)
        return float(np.std(correct, ddof=1) / np.sqrt(len(correct)))
    replicates = bootstrap_metric(metric, labels, predictions, rng, bootstrap_iters)
    return float(np.std(replicates, ddof=1))


LENGTH_COLUMNS = ("n_tokens", "n_chars", "n_bytes")


def _lengths(rows: pd.DataFrame) -> dict:
    return {column: [int(v) for v in rows[column]] for column in LENGTH_COLUMNS}


def _prior_fields(group: pd.DataFrame, priors: pd.DataFrame) -> dict:
    """The N/A prior request of each option of ``group``, aligned with the options."""
    matched = priors.loc[group["continuation"]]
    return {
        "arguments": [[c, o] for c, o in zip(matched["context"], matched.index)],
        "resps": [[float(lp), bool(g)] for lp, g in zip(matched["logprob_sum"], matched["is_greedy"])],
        **_lengths(matched),
    }


def lmeval_sample_rows(scores: pd.DataFrame, items: pd.DataFrame) -> list[dict]:
    """One lm-evaluation-harness-style record per item, in items order (``doc_id`` = position)."""
    options = scores[scores["kind"] == "option"]
    priors = scores[scores["kind"] == "prior"].drop_duplicates("continuation").set_index("continuation")
    by_item = {item_id: g.sort_values("option_index") for item_id, g in options.groupby("item_id", sort=False)}
    records = []
    for doc_id, item in enumerate(items.itertuples(index=False)):
        group = by_item.get(str(item.id))
        if group is None or len(group) != len(item.options):
            have = 0 if group is None else len(group)
            raise ValueError(f"item {item.id!r}: {have} scored options, expected {len(item.options)}")
        lls = group["logprob_sum"].to_numpy(dtype=np.float64)
        greedy = group["is_greedy"].to_numpy(dtype=bool)
        pairs = [[float(lp), bool(g)] for lp, g in zip(lls, greedy)]
        doc = _doc(item)
        label = int(item.label)
        acc = float(np.argmax(lls) == label)
        choice_chars = np.array([len(choice_text(c)) for c in group["continuation"]], dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):  # an empty choice: as lm-eval, no guard
            acc_norm = float(np.argmax(lls / choice_chars) == label)
        arguments = [[c, o] for c, o in zip(group["context"], group["continuation"])]
        extra = _lengths(group)
        if len(priors):
            extra["prior"] = _prior_fields(group, priors)
        records.append(
            {
                "doc_id": doc_id,
                "doc": doc,
                "target": label,
                "arguments": arguments,
                "resps": [[p] for p in pairs],
                "filtered_resps": pairs,
                "filter": "none",
                "metrics": ["acc", "acc_norm"] + (["f1"] if len(lls) == 2 else []),
                "doc_hash": _hash(json.dumps(doc, indent=2, ensure_ascii=False)),
                "prompt_hash": _hash(arguments[0][0]),
                "target_hash": _hash(str(label)),
                "acc": acc,
                "acc_norm": acc_norm,
                **({"f1": [label, int(np.argmax(lls))]} if len(lls) == 2 else {}),
                "benchval": extra,
            }
        )
    return records


def choice_text(continuation: str) -> str:
    """The choice as lm-eval's ``doc_to_choice`` gives it: the continuation without the target delimiter."""
    return continuation[len(TARGET_DELIMITER) :] if continuation.startswith(TARGET_DELIMITER) else continuation


def binary_f1_replicates(gold: np.ndarray, predicted: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """F1 of class 1 in each resample (``counts``: B x n draws of each item), 0 where it is undefined
    (``sklearn.metrics.f1_score`` with ``zero_division=0``)."""
    true_positive = counts @ ((gold == 1) & (predicted == 1)).astype(float)
    denominator = counts @ (gold == 1).astype(float) + counts @ (predicted == 1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, 2 * true_positive / denominator, 0.0)


def harness_figures(records: list[dict], rng: np.random.Generator, bootstrap_iters: int) -> dict:
    """lm-eval's own keys of the results JSON from the sample records: ``acc``, ``acc_norm`` (means, with
    ``mean_stderr``) and, where every record logs it, binary ``f1`` (with ``bootstrap_stderr``)."""
    from sklearn.metrics import f1_score

    if not records:
        return {}
    figures = {}
    for name in ("acc", "acc_norm"):
        values = np.array([record[name] for record in records], dtype=float)
        figures[f"{name},none"] = float(values.mean())
        figures[f"{name}_stderr,none"] = (
            float(np.std(values, ddof=1) / np.sqrt(len(values))) if len(values) > 1 else STDERR_NOT_AVAILABLE
        )
    if all("f1" in record for record in records):
        gold, predicted = (np.array([record["f1"][i] for record in records]) for i in (0, 1))
        figures["f1,none"] = float(f1_score(gold, predicted))
        if len(gold) > 1 and bootstrap_iters > 0:
            replicates = np.concatenate(
                [
                    binary_f1_replicates(
                        gold, predicted, resample_counts(rng, len(gold), min(CHUNK, bootstrap_iters - start))
                    )
                    for start in range(0, bootstrap_iters, CHUNK)
                ]
            )
            figures["f1_stderr,none"] = float(np.std(replicates, ddof=1))
        else:
            figures["f1_stderr,none"] = STDERR_NOT_AVAILABLE
    return figures


def write_lmeval_samples(scores: pd.DataFrame, items: pd.DataFrame, path: str | Path) -> Path:
    """Write :func:`lmeval_sample_rows` as JSON Lines (UTF-8)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for record in lmeval_sample_rows(scores, items):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path
