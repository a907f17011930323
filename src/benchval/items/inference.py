"""Inference for a subset's validity (docs/items.md, "Inference for subsets"): an interval that resamples
models clustered by family (and, for random subsets, draws) together, and a permutation null for
selection on the criterion.

* :func:`cluster_indices`: each resample draws as many families as there are, with replacement, and
  takes every model of each drawn family (a family drawn twice counts twice), so models of one lineage
  are never treated as independent.
* :func:`resampled_spearman`: Spearman rho of columns 1.. with column 0 in every resample at once
  (resamples of unequal length are padded and ranked with NaNs omitted).
* :func:`permuted_criteria` and :func:`lofo_permuted_scores`: the leave-one-family-out selection
  repeated on permuted criteria (every fold ranks its items by rho with the permuted criterion over its
  training models, vectorised over permutations), so a selected subset's rho is judged against what
  selection on a criterion with no relation to the items reaches by chance.
* :func:`permutation_p`: (1 + #{null >= observed}) / (1 + #null) (Phipson and Smyth 2010), never 0.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats


def cluster_indices(labels: np.ndarray, rng: np.random.Generator, n_boot: int) -> np.ndarray:
    """``n_boot`` resamples of the rows, clustered by ``labels``: B x L row indices, padded with -1."""
    groups = [np.flatnonzero(labels == g) for g in dict.fromkeys(labels)]
    draws = rng.integers(0, len(groups), size=(n_boot, len(groups)))
    rows = [np.concatenate([groups[g] for g in draw]) for draw in draws]
    padded = np.full((n_boot, max(len(r) for r in rows)), -1)
    for b, r in enumerate(rows):
        padded[b, : len(r)] = r
    return padded


def _unit_ranks(values: np.ndarray, axis: int, valid: np.ndarray | None = None) -> np.ndarray:
    """Ranks over the ``valid`` entries (default: the finite ones), centred and scaled to unit norm along
    ``axis``; 0 at the others; NaN for a constant column. The others are ranked last as +inf, which leaves
    the ranks of the valid entries as they are."""
    valid = np.isfinite(values) if valid is None else valid
    ranks = stats.rankdata(np.where(valid, values, np.inf), axis=axis)
    count = valid.sum(axis=axis, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        centred = np.where(valid, ranks - np.where(valid, ranks, 0).sum(axis=axis, keepdims=True) / count, 0.0)
        return centred / np.sqrt((centred**2).sum(axis=axis, keepdims=True))


def resampled_spearman(stack: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """B x (c - 1): rho of columns 1.. of ``stack`` with column 0 in each resample (``indices`` B x L,
    -1 = padding). ``stack``: n x c, or B x n x c when a column differs per resample (a random draw)."""
    stack = np.broadcast_to(stack, (len(indices), *stack.shape[-2:])) if stack.ndim == 2 else stack
    safe = np.where(indices < 0, 0, indices)
    gathered = np.take_along_axis(stack, safe[..., None], axis=1)
    unit = _unit_ranks(gathered, 1, np.broadcast_to(indices[..., None] >= 0, gathered.shape))
    return np.clip(np.einsum("bn,bnc->bc", unit[..., 0], unit[..., 1:]), -1.0, 1.0)


def permuted_criteria(y: np.ndarray, rng: np.random.Generator, n_permutations: int) -> np.ndarray:
    """n x P: ``y`` permuted over the models, one column per permutation."""
    return (
        np.column_stack([rng.permutation(y) for _ in range(n_permutations)])
        if n_permutations
        else np.empty((len(y), 0))
    )


def spearman_with_columns(scores: np.ndarray, y_columns: np.ndarray) -> np.ndarray:
    """rho of ``scores`` (n, or n x P: one score vector per column) with every column of ``y_columns``."""
    scores = np.broadcast_to(scores[:, None], y_columns.shape) if scores.ndim == 1 else scores
    return np.clip((_unit_ranks(scores, 0) * _unit_ranks(y_columns, 0)).sum(axis=0), -1.0, 1.0)


def top_rows(key: np.ndarray, k: int) -> np.ndarray:
    """k x P: per column of ``key`` (items x P) the rows of the k largest values in descending order,
    ties to the earlier row (as benchval.items.subsets.top_k): a partition finds each column's k-th
    value, and only the rows at or above it are sorted."""
    k = min(k, key.shape[0])
    threshold = -np.partition(-key, k - 1, axis=0)[k - 1]  # P
    order = np.empty((k, key.shape[1]), dtype=int)
    for p in range(key.shape[1]):
        rows = np.flatnonzero(key[:, p] >= threshold[p])
        order[:, p] = rows[np.lexsort((rows, -key[rows, p]))][:k]
    return order


def lofo_permuted_scores(
    values: np.ndarray,
    y_columns: np.ndarray,
    labels: np.ndarray,
    ks: list[int],
    min_training_models: int,
    check: Callable[[np.ndarray, np.ndarray], None] | None = None,
) -> np.ndarray:
    """P x len(ks) x n: the pooled held-out subset scores of the leave-one-family-out selection for each
    criterion column of ``y_columns`` (n x P); NaN for the models of a fold with too few training models.
    The same selection rule as :func:`benchval.items.subsets.lofo_criterion_scores` (ties: earlier item);
    ``check(training, held_out)`` is called on every fold's boolean masks."""
    n_perm, k_max = y_columns.shape[1], max(ks)
    pooled = np.full((n_perm, len(ks), len(values)), np.nan)
    for family in sorted(set(labels)):
        held_out, training = labels == family, labels != family
        if training.sum() < min_training_models:
            continue
        if check is not None:
            check(training, held_out)
        with np.errstate(invalid="ignore", divide="ignore"):
            rho = _unit_ranks(values[training], 0).T @ _unit_ranks(y_columns[training], 0)  # items x P
        key = np.where(np.isfinite(rho), np.round(rho, 12), -np.inf)  # as subsets.top_k
        order = top_rows(key, k_max)  # k_max x P
        running = np.cumsum(values[held_out][:, order], axis=1)  # held x k_max x P
        for j, k in enumerate(ks):
            pooled[:, j, held_out] = (running[:, k - 1, :] / k).T
    return pooled


def permutation_p(observed: float, null: np.ndarray) -> float:
    """One-sided permutation p of ``observed`` against ``null`` (larger = more extreme); NaN without one."""
    null = null[np.isfinite(null)]
    if not np.isfinite(observed) or null.size == 0:
        return np.nan
    return float((1 + np.sum(null >= observed - 1e-12)) / (1 + null.size))
