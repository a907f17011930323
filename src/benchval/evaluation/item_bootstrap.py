"""Item bootstrap of accuracy and macro-F1 (vectorised: every resample at once).

A resample draws a task's ``n`` items with replacement. Instead of materialising the resampled
predictions, each resample is represented by how often it drew each item (a ``B x n`` count
matrix ``W``). Then, with one-hot labels ``Y`` and predictions ``P`` (``n x K``, K option
classes):

* accuracy = ``W @ correct / n``;
* per class: TP = ``W @ (Y * P)``, true count T = ``W @ Y``, predicted count C = ``W @ P``,
  F1 = 2 TP / (T + C); macro-F1 = mean of F1 over the classes with T + C > 0, i.e. over the
  classes seen as label or prediction in that resample, exactly as
  ``sklearn.metrics.f1_score(average="macro", zero_division=0)`` (tested against it).

Seeding: :func:`item_rng` derives the generator from the config seed and a text key (e.g. the
task name), ``numpy.random.default_rng([seed, crc32(key)])``, the same scheme as
:func:`benchval.analysis.bootstrap.rng_for`; equal keys give equal resamples, so all models of one
task share them (paired across models).
"""

from __future__ import annotations

import zlib

import numpy as np

#: resamples processed per block, bounding memory at ~ CHUNK x n_items counts
CHUNK = 1000


def item_rng(seed: int, *key: object) -> np.random.Generator:
    """A Generator seeded by ``seed`` and a CRC32 of ``key`` joined by '/'."""
    text = "/".join(str(k) for k in key)
    return np.random.default_rng([int(seed), zlib.crc32(text.encode("utf-8"))])


def resample_counts(rng: np.random.Generator, n_items: int, n_boot: int) -> np.ndarray:
    """``n_boot`` x ``n_items`` multiplicities: row b counts how often resample b drew each item."""
    draws = rng.integers(0, n_items, size=(n_boot, n_items))
    offsets = (np.arange(n_boot) * n_items)[:, None]
    return np.bincount((draws + offsets).ravel(), minlength=n_boot * n_items).reshape(n_boot, n_items)


def _one_hot(values: np.ndarray, n_classes: int) -> np.ndarray:
    return (np.asarray(values)[:, None] == np.arange(n_classes)[None, :]).astype(float)


def weighted_accuracy(counts: np.ndarray, labels: np.ndarray, predictions: np.ndarray) -> np.ndarray:
    """Accuracy of each resample (rows of ``counts``)."""
    correct = (np.asarray(labels) == np.asarray(predictions)).astype(float)
    return counts @ correct / counts.sum(axis=1)


def weighted_macro_f1(counts: np.ndarray, labels: np.ndarray, predictions: np.ndarray) -> np.ndarray:
    """Macro-F1 of each resample, over the classes present as label or prediction in it."""
    labels, predictions = np.asarray(labels, dtype=int), np.asarray(predictions, dtype=int)
    n_classes = int(max(labels.max(initial=0), predictions.max(initial=0))) + 1
    truth, predicted = _one_hot(labels, n_classes), _one_hot(predictions, n_classes)
    true_positive = counts @ (truth * predicted)
    denominator = counts @ truth + counts @ predicted
    present = denominator > 0
    f1 = np.divide(2.0 * true_positive, denominator, out=np.zeros_like(true_positive), where=present)
    return f1.sum(axis=1) / present.sum(axis=1)


METRIC_FUNCTIONS = {"accuracy": weighted_accuracy, "macro_f1": weighted_macro_f1}


def bootstrap_metric(
    metric: str, labels: np.ndarray, predictions: np.ndarray, rng: np.random.Generator, n_boot: int
) -> np.ndarray:
    """``n_boot`` bootstrap replicates of ``metric`` (``accuracy`` or ``macro_f1``) over items."""
    if metric not in METRIC_FUNCTIONS:
        raise ValueError(f"no item bootstrap for metric {metric!r}; known: {sorted(METRIC_FUNCTIONS)}")
    n_items = len(labels)
    if n_items == 0:
        return np.full(n_boot, np.nan)
    blocks = []
    for start in range(0, n_boot, CHUNK):
        counts = resample_counts(rng, n_items, min(CHUNK, n_boot - start))
        blocks.append(METRIC_FUNCTIONS[metric](counts.astype(float), labels, predictions))
    return np.concatenate(blocks)
