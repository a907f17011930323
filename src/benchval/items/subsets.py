"""Subsets of a benchmark's items and their criterion validity (the validity curve, docs/items.md).

A subset's score of a model is the mean of its items' scores. For each k:

* ``random``: ``n_draws`` seeded draws of k items; the rho of each draw with the criterion; the interval
  is the spread over draws (the central ``level`` share of draws), i.e. what a random k-item subset gives.
* ``irt``: the k items of most Fisher information (2PL, a^2 P (1 - P)) summed over the abilities of the
  respondents the IRT model was fitted to: maximum-information items (not tinyBenchmarks' anchor
  points); chosen from the benchmark's responses only (no criterion), so all models may inform it.
* ``criterion``: leave one family out. For each family, the k items of highest Spearman rho with the
  criterion among the *training* families' models only; the held-out family's models are scored on
  them. The held-out scores of all folds are pooled before the rho is taken (as the paper's LOFO pools
  its predictions), so a selection that overfits the training models cannot show as validity.

``irt``, ``criterion`` and the full benchmark get a percentile bootstrap over models (the same resamples
for all, so ``diff_vs_full`` = rho(subset) - rho(full) has a paired interval). Each subset also says how
well it recovers the full benchmark's mean: ``mae_vs_full`` (mean absolute difference of the subset and
full scores, accuracy points) and ``rho_vs_full`` (Spearman of subset and full scores).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchval.analysis.bootstrap import bootstrap_spearman, resample_indices, summarise
from benchval.items.irt import information
from benchval.items.validity import spearman_columns

METHODS = ("random", "irt", "criterion")


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
    key = np.where(np.isnan(scores), -np.inf, scores)
    order = np.lexsort((np.arange(len(key)), -key))
    return np.sort(order[:k])


def information_ranking(items: pd.DataFrame, thetas: np.ndarray) -> np.ndarray:
    """Each item's information summed over ``thetas`` (``items``: discrimination, difficulty)."""
    info = information(thetas, items["discrimination"].to_numpy(float), items["difficulty"].to_numpy(float))
    return info.sum(axis=0)


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
    matrix: pd.DataFrame, criterion: pd.Series, families: pd.Series, ks: list[int], min_training_models: int
) -> dict[int, tuple[pd.Series, list[Fold]]]:
    """Per k: the pooled held-out subset scores over leave-one-family-out folds, and each fold's selection.

    Each fold ranks the items by their rho over the training families' models only (computed once per
    fold, then cut at every k). A fold whose training families hold fewer than ``min_training_models``
    models is not scored (its models are missing from the pooled scores)."""
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
        rho, _ = spearman_columns(values[training], y[training])
        for k in ks:
            chosen = top_k(rho, k)
            folds[k].append(
                Fold(family, tuple(matrix.index[training]), tuple(matrix.index[held_out]), tuple(columns[chosen]))
            )
            pooled[k][held_out] = values[np.ix_(held_out, chosen)].mean(axis=1)
    return {k: (pd.Series(pooled[k], index=matrix.index), folds[k]) for k in ks}


def _recovery(subset: np.ndarray, full: np.ndarray) -> tuple[float, float]:
    both = np.isfinite(subset)
    mae = float(np.mean(np.abs(subset[both] - full[both])))
    rho, _ = spearman_columns(subset[both][:, None], full[both])
    return mae, float(rho[0])


def random_rows(matrix, criterion, full_rho, ks, n_draws, rng, level) -> list[dict]:
    values, y, full = matrix.to_numpy(float), criterion.to_numpy(float), matrix.to_numpy(float).mean(axis=1)
    n_items, rows = values.shape[1], []
    tail = (1.0 - level) / 2.0
    for k_label, k in ks:
        if k == n_items:  # every draw is the whole benchmark
            scores = np.repeat(full[:, None], n_draws, axis=1)
        else:
            draws = np.array([rng.choice(n_items, size=k, replace=False) for _ in range(n_draws)])
            scores = values[:, draws].mean(axis=2)  # models x draws
        rho, _ = spearman_columns(scores, y)
        valid = rho[np.isfinite(rho)]
        diff = valid - full_rho
        recovered, _ = spearman_columns(scores, full)
        rows.append(
            {
                "method": "random",
                "k": k_label,
                "n_items": k,
                "rho": float(np.median(valid)),
                "ci_low": float(np.quantile(valid, tail)),
                "ci_high": float(np.quantile(valid, 1 - tail)),
                "interval": f"central {level:.0%} of {len(valid)} draws",
                "diff_vs_full": float(np.median(diff)),
                "diff_ci_low": float(np.quantile(diff, tail)),
                "diff_ci_high": float(np.quantile(diff, 1 - tail)),
                "mae_vs_full": float(np.mean(np.abs(scores - full[:, None]))),
                "rho_vs_full": float(np.nanmedian(recovered)),
                "n_models": len(y),
                "note": "" if len(valid) == n_draws else f"{n_draws - len(valid)} draws constant (no rho)",
            }
        )
    return rows


def bootstrap_rows(columns: dict[str, np.ndarray], y: np.ndarray, rng, n_boot: int, level: float) -> dict:
    """Per column: rho with the criterion and rho - rho(full), each with its percentile interval, from
    the same model resamples (``columns`` must hold ``full``; rows with a missing value are left out)."""
    names = list(columns)
    stack = np.column_stack([y] + [columns[name] for name in names])
    stack = stack[np.isfinite(stack).all(axis=1)]
    point = bootstrap_spearman(stack, np.arange(len(stack))[None, :])[0]
    boot = bootstrap_spearman(stack, resample_indices(rng, len(stack), n_boot))
    full = names.index("full") + 1
    out = {}
    for j, name in enumerate(names, start=1):
        rho = summarise(point[0, j], boot[:, 0, j], level)
        diff = summarise(point[0, j] - point[0, full], boot[:, 0, j] - boot[:, 0, full], level)
        out[name] = {
            "rho": rho["estimate"],
            "ci_low": rho["ci_low"],
            "ci_high": rho["ci_high"],
            "interval": f"model bootstrap, {rho['n_boot_valid']} resamples",
            "diff_vs_full": diff["estimate"],
            "diff_ci_low": diff["ci_low"],
            "diff_ci_high": diff["ci_high"],
            "n_models": len(stack),
        }
    return out


def validity_curve(
    matrix: pd.DataFrame,
    criterion: pd.Series,
    families: pd.Series,
    information_by_item: pd.Series,
    settings: dict,
    rng_for_key,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The validity curve (one row per method and k, plus the full benchmark) and every LOFO fold's
    selection (``rng_for_key(name)``: a seeded Generator per purpose)."""
    criterion = criterion.reindex(matrix.index)
    y, full = criterion.to_numpy(float), matrix.to_numpy(float).mean(axis=1)
    ks = k_values(settings["k"], matrix.shape[1])
    level, n_boot = float(settings["ci_level"]), int(settings["n_bootstrap"])
    full_rho = float(spearman_columns(full[:, None], y)[0][0])
    rows = random_rows(matrix, criterion, full_rho, ks, int(settings["n_random_draws"]), rng_for_key("random"), level)
    info = information_by_item.reindex(matrix.columns).to_numpy(float)
    lofo = lofo_criterion_scores(matrix, criterion, families, [k for _, k in ks], int(settings["min_models"]))
    fold_rows = []
    for k_label, k in ks:
        irt_items = list(matrix.columns[top_k(info, k)])
        irt_scores = matrix[irt_items].mean(axis=1).to_numpy(float)
        pooled, folds = lofo[k]
        crit_scores = pooled.to_numpy(float)
        fold_rows += [
            {"k": k_label, "held_out_family": f.family, "n_training_models": len(f.training_models),
             "held_out_models": ";".join(f.held_out_models), "selected_items": ";".join(f.selected_items)}
            for f in folds
        ]  # fmt: skip
        boot = bootstrap_rows(
            {"full": full, "irt": irt_scores, "criterion": crit_scores},
            y,
            rng_for_key(f"boot/{k_label}"),
            n_boot,
            level,
        )
        for method, scores in (("irt", irt_scores), ("criterion", crit_scores)):
            mae, rho_full = _recovery(scores, full)
            note = "" if np.isfinite(scores).all() else f"{int((~np.isfinite(scores)).sum())} models in no scored fold"
            rows.append(
                {"method": method, "k": k_label, "n_items": k, **boot[method], "mae_vs_full": mae,
                 "rho_vs_full": rho_full, "note": note}
            )  # fmt: skip
    full_row = bootstrap_rows({"full": full}, y, rng_for_key("boot/full"), n_boot, level)["full"]
    rows.append(
        {"method": "full", "k": "all", "n_items": matrix.shape[1], **full_row, "mae_vs_full": 0.0, "rho_vs_full": 1.0,
         "note": ""}
    )  # fmt: skip
    return pd.DataFrame(rows), pd.DataFrame(fold_rows)
