"""Subsets of a benchmark's items and how each is selected (docs/items.md; the validity curve that
judges them: benchval.items.curve).

* ``random``: seeded draws of k items.
* ``irt``: the k items of most Fisher information of the chosen IRT fit (benchval.items.irt_selection;
  items at a bound of the fit are never chosen); ``anchor``: tinyBenchmarks' anchor points and the p-IRT
  estimate of the full score (same module). Neither reads the criterion.
* ``criterion``: leave one family (lineage, benchval.items.lineage) out. For each family, the k items of
  highest Spearman rho with the criterion among the *training* families' models only; the held-out
  family's models are scored on them. The held-out scores of all folds are pooled before the rho is
  taken (as the paper's LOFO pools its predictions), so a selection that overfits the training models
  cannot show as validity. Every fold is checked against the lineages (:func:`lofo_criterion_scores`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchval.items.lineage import check_fold
from benchval.items.validity import spearman_columns

METHODS = ("random", "irt", "anchor", "criterion")


def k_values(requested, n_items: int) -> list[tuple[str, int]]:
    """(as requested, as used) for each k: ``all`` = every item; a k above the item count is left out."""
    values = []
    for k in requested:
        if k == "all":
            values.append(("all", n_items))
        elif int(k) < n_items:
            values.append((str(int(k)), int(k)))
    return values


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Column positions of the k highest scores (NaN lowest; ties: the earlier column), sorted."""
    key = np.where(np.isnan(scores), -np.inf, np.round(scores, 12))  # rounded: ties equal however computed
    order = np.lexsort((np.arange(len(key)), -key))
    return np.sort(order[:k])


@dataclass(frozen=True)
class Fold:
    family: str
    training_models: tuple
    held_out_models: tuple
    selected_items: tuple


def training_rho(matrix: pd.DataFrame, criterion: pd.Series) -> np.ndarray:
    """Each item's Spearman rho with the criterion over the rows of ``matrix`` (the training models)."""
    rho, _ = spearman_columns(matrix.to_numpy(float), criterion.reindex(matrix.index).to_numpy(float))
    return rho


def lofo_criterion_scores(
    matrix: pd.DataFrame,
    criterion: pd.Series,
    families: pd.Series,
    ks: list[int],
    min_training_models: int,
    lineage: dict | None = None,
) -> dict[int, tuple[pd.Series, list[Fold]]]:
    """Per k: the pooled held-out subset scores over leave-one-family-out folds, and each fold's selection.

    Each fold ranks the items by their rho over the training families' models only (computed once per
    fold, then cut at every k). A fold whose training families hold fewer than ``min_training_models``
    models is not scored (its models are missing from the pooled scores). Every fold is checked against
    ``lineage`` (model -> lineage; default: the families): a training model of a held-out lineage fails."""
    families = families.reindex(matrix.index)
    if families.isna().any():
        raise ValueError(f"models without a family: {list(families.index[families.isna()])[:5]}")
    values = matrix.to_numpy(float)
    y = criterion.reindex(matrix.index).to_numpy(float)
    labels, columns = families.to_numpy(), np.asarray(matrix.columns)
    pooled = {k: np.full(len(values), np.nan) for k in ks}
    folds = {k: [] for k in ks}
    for family in sorted(set(labels)):
        held_out, training = labels == family, labels != family
        if training.sum() < min_training_models:
            continue
        check_fold(matrix.index[training], matrix.index[held_out], lineage or dict(families))
        rho, _ = spearman_columns(values[training], y[training])
        for k in ks:
            chosen = top_k(rho, k)
            folds[k].append(
                Fold(family, tuple(matrix.index[training]), tuple(matrix.index[held_out]), tuple(columns[chosen]))
            )
            pooled[k][held_out] = values[np.ix_(held_out, chosen)].mean(axis=1)
    return {k: (pd.Series(pooled[k], index=matrix.index), folds[k]) for k in ks}
