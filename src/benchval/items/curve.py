"""The validity curve of one (benchmark, criterion) pair: every method of benchval.items.subsets at every
k, each judged against the full benchmark by benchval.items.inference (docs/items.md).

All rows of a pair share one set of family resamples (so the differences are paired) and one set of
permuted criteria. The permutation null of ``criterion`` repeats the leave-one-family-out selection on
each permuted criterion; ``random`` draws a fresh subset per resample and per permutation (its point
estimate stays the median over ``n_random_draws`` draws); ``irt`` and ``anchor`` do not read the
criterion, so their null is the ordinary permutation null of a fixed score. The family resamples do not
repeat the criterion selection (the pooled held-out scores are resampled as they are).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis.bootstrap import summarise
from benchval.items import inference
from benchval.items.irt_selection import IrtSelection, anchor_points, pirt_estimate
from benchval.items.lineage import check_fold
from benchval.items.subsets import k_values, lofo_criterion_scores, top_k
from benchval.items.validity import spearman_columns


def verdict(diff_low: float, diff_high: float, p_rho: float, p_gain: float, alpha: float) -> str:
    """``gains``: the difference's interval above 0 and both permutation p below ``alpha``; ``loses``: the
    interval below 0; ``keeps``: the interval holds 0 and the subset's rho beats the permutation null
    (``p_rho`` < ``alpha``); else ``undecided``."""
    if not (np.isfinite(diff_low) and np.isfinite(diff_high)):
        return "undecided"
    if diff_low > 0 and np.isfinite(p_gain) and p_gain < alpha and p_rho < alpha:
        return "gains"  # a gain over a full benchmark that is itself near 0 is no validity
    if diff_high < 0:
        return "loses"
    if diff_low <= 0 <= diff_high and np.isfinite(p_rho) and p_rho < alpha:
        return "keeps"
    return "undecided"


class PairContext:
    """What every row of one pair shares: the data, the family resamples and the permuted criteria."""

    def __init__(self, matrix, criterion, families, settings, rng_for_key):
        self.values = matrix.to_numpy(float)
        self.y = criterion.reindex(matrix.index).to_numpy(float)
        self.full = self.values.mean(axis=1)
        self.labels = families.reindex(matrix.index).to_numpy()
        self.level = float(settings["ci_level"])
        self.boot = inference.cluster_indices(self.labels, rng_for_key("boot"), int(settings["n_bootstrap"]))
        n_perm = int(settings["n_permutations"])
        self.y_perm = inference.permuted_criteria(self.y, rng_for_key("permutations"), n_perm)

    def judge(self, scores: np.ndarray, null_scores: np.ndarray | None = None, boot_scores=None) -> dict:
        """rho, the family-resampled interval of rho and of rho - rho(full), the permutation p-values.
        ``null_scores`` (n x P): the method's scores under each permuted criterion (default: ``scores``);
        ``boot_scores`` (B x n): a score vector per resample (random draws; default: ``scores``)."""
        ok = np.isfinite(scores)
        rho = float(spearman_columns(scores[ok][:, None], self.y[ok])[0][0])
        full_rho = float(spearman_columns(self.full[ok][:, None], self.y[ok])[0][0])
        indices = np.where((self.boot >= 0) & ok[np.maximum(self.boot, 0)], self.boot, -1)
        if boot_scores is None:
            stack = np.column_stack([self.y, self.full, np.where(ok, scores, 0.0)])
        else:
            fixed = np.broadcast_to(np.column_stack([self.y, self.full]), (len(boot_scores), len(self.y), 2))
            stack = np.concatenate([fixed, boot_scores[..., None]], axis=2)
        draws = inference.resampled_spearman(stack, indices)
        rho_ci = summarise(rho, draws[:, 1], self.level)
        diff_ci = summarise(rho - full_rho, draws[:, 1] - draws[:, 0], self.level)
        null = scores[:, None] if null_scores is None else null_scores
        null_rho = inference.spearman_with_columns(null[ok] if null.shape[1] > 1 else null[ok][:, 0], self.y_perm[ok])
        null_full = inference.spearman_with_columns(self.full[ok], self.y_perm[ok])
        p_rho = inference.permutation_p(rho, null_rho)
        p_gain = inference.permutation_p(rho - full_rho, null_rho - null_full)
        alpha = 1.0 - self.level
        return {
            "rho": rho,
            "ci_low": rho_ci["ci_low"],
            "ci_high": rho_ci["ci_high"],
            "diff_vs_full": rho - full_rho,
            "diff_ci_low": diff_ci["ci_low"],
            "diff_ci_high": diff_ci["ci_high"],
            "interval": f"families and draws resampled, {rho_ci['n_boot_valid']} resamples",
            "p_perm_rho": p_rho,
            "p_perm_gain": p_gain,
            "n_permutations": int(np.isfinite(null_rho).sum()),
            "verdict": verdict(diff_ci["ci_low"], diff_ci["ci_high"], p_rho, p_gain, alpha),
            "n_models": int(ok.sum()),
            "n_families": len(set(self.labels[ok])),
        }


def _recovery(scores: np.ndarray, full: np.ndarray) -> dict:
    both = np.isfinite(scores)
    rho = spearman_columns(scores[both][:, None], full[both])[0][0]
    return {"mae_vs_full": float(np.mean(np.abs(scores[both] - full[both]))), "rho_vs_full": float(rho)}


def random_subset_scores(matrix: pd.DataFrame, k: int, count: int, rng) -> pd.DataFrame:
    """models x ``count``: each column the mean score of a fresh random k-item subset (drawn without
    replacement). Drawn once per benchmark and k and shared by its criteria (they read no criterion)."""
    picks = np.array([rng.choice(matrix.shape[1], k, replace=False) for _ in range(count)])  # count x k
    return pd.DataFrame(matrix.to_numpy(float)[:, picks].mean(axis=2), index=matrix.index)


def random_row(ctx: PairContext, scores: np.ndarray, n_draws: int) -> dict:
    """A random k-item subset (``scores``: models x draws, :func:`random_subset_scores`): rho and difference
    = the medians over the first ``n_draws`` draws; the interval and the null take a fresh draw per
    resample and per permutation (the next columns)."""
    n_boot, n_perm = len(ctx.boot), ctx.y_perm.shape[1]
    draws, boot = scores[:, :n_draws], scores[:, n_draws : n_draws + n_boot]
    null = scores[:, n_draws + n_boot : n_draws + n_boot + n_perm] if n_perm else None
    rho, _ = spearman_columns(draws, ctx.y)
    full_rho = float(spearman_columns(ctx.full[:, None], ctx.y)[0][0])
    middle = int(np.argsort(rho)[len(rho) // 2])  # the median draw stands for the point estimate
    judged = ctx.judge(draws[:, middle], null, boot.T)
    judged.update(rho=float(np.nanmedian(rho)), diff_vs_full=float(np.nanmedian(rho) - full_rho))
    alpha = 1.0 - ctx.level
    judged["verdict"] = verdict(
        judged["diff_ci_low"], judged["diff_ci_high"], judged["p_perm_rho"], judged["p_perm_gain"], alpha
    )
    recovered, _ = spearman_columns(draws, ctx.full)
    return {
        **judged,
        "mae_vs_full": float(np.mean(np.abs(draws - ctx.full[:, None]))),
        "rho_vs_full": float(np.nanmedian(recovered)),
    }


def _irt_scores(ctx: PairContext, irt: IrtSelection, columns: pd.Index, k: int, seed: int) -> tuple[dict, str]:
    """The maximum-information and the anchor-point scores at k, or a note why there are none. The anchors
    are the benchmark's (:func:`add_anchor_sets`), clustered here on this pair's models if it has none."""
    info = irt.information.reindex(columns).to_numpy(float)
    usable = np.isfinite(info)
    if usable.sum() < k:
        return {}, f"{int(usable.sum())} items off a bound, fewer than k"
    if k not in irt.anchors:
        irt.anchors[k] = list(columns[anchor_points(ctx.values, usable, k, seed)[0]])
    anchors = columns.get_indexer(irt.anchors[k])
    scores = {
        "irt": ctx.values[:, top_k(info, k)].mean(axis=1),
        "anchor": pirt_estimate(ctx.values, anchors, irt.items.reindex(columns), ctx.values[0]),
    }
    return scores, ""


def validity_curve(
    matrix: pd.DataFrame,
    criterion: pd.Series,
    families: pd.Series,
    irt: IrtSelection,
    settings: dict,
    rng_for_key,
    lineage: dict | None = None,
    random_scores: dict | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The validity curve (one row per method and k, and the full benchmark) and every LOFO fold's
    selection (``rng_for_key(name)``: a seeded Generator per purpose; ``lineage``: model -> lineage that
    every fold is checked against, default the families; ``random_scores``: k -> the benchmark's
    :func:`random_subset_scores`, drawn here on this pair's models where absent)."""
    ctx = PairContext(matrix, criterion, families, settings, rng_for_key)
    n_items, lineage = matrix.shape[1], lineage or families.to_dict()
    random_scores = {} if random_scores is None else random_scores
    ks = k_values(settings["k"], n_items)
    subset_ks = [k for _, k in ks if k < n_items]
    min_models = int(settings["min_models"])
    lofo = lofo_criterion_scores(matrix, criterion, families, [k for _, k in ks], min_models, lineage)
    names = np.asarray(matrix.index)
    null = inference.lofo_permuted_scores(
        ctx.values,
        ctx.y_perm,
        ctx.labels,
        subset_ks or [1],
        min_models,
        lambda train, held: check_fold(names[train], names[held], lineage),
    )
    rows, fold_rows = [], []
    for k_label, k in ks:
        pooled, folds = lofo[k]
        fold_rows += _fold_rows(k_label, folds)
        if k == n_items:
            continue  # every method at k = all is the full benchmark (its row below)
        if k not in random_scores:
            count = int(settings["n_random_draws"]) + len(ctx.boot) + ctx.y_perm.shape[1]
            random_scores[k] = random_subset_scores(matrix, k, count, rng_for_key(f"random/{k_label}"))
        drawn = random_scores[k].reindex(matrix.index).to_numpy(float)
        base = {"k": k_label, "n_items": k}
        rows.append({"method": "random", **base, **random_row(ctx, drawn, int(settings["n_random_draws"]))})
        seed = int(rng_for_key(f"anchor/{k_label}").integers(2**31))
        rows += _irt_rows(ctx, irt, matrix.columns, k, seed, base)
        null_scores = null[:, subset_ks.index(k), :].T if ctx.y_perm.shape[1] else None
        rows.append(_criterion_row(ctx, pooled.to_numpy(float), null_scores, base))
    rows.append(_full_row(ctx, n_items))
    return pd.DataFrame(rows), pd.DataFrame(fold_rows)


def _fold_rows(k_label, folds) -> list[dict]:
    """One row per LOFO fold at k: the held-out family, its models and the items the fold selected."""
    return [
        {
            "k": k_label,
            "held_out_family": f.family,
            "n_training_models": len(f.training_models),
            "held_out_models": ";".join(f.held_out_models),
            "selected_items": ";".join(f.selected_items),
        }
        for f in folds
    ]


def _irt_rows(ctx: PairContext, irt: IrtSelection, columns: pd.Index, k: int, seed: int, base: dict) -> list[dict]:
    """The maximum-information and anchor-point rows at k (each with a note where it has no scores)."""
    irt_scores, note = _irt_scores(ctx, irt, columns, k, seed)
    rows = []
    for method in ("irt", "anchor"):
        if method not in irt_scores:
            rows.append({"method": method, **base, "note": note})
            continue
        scores = irt_scores[method]
        rows.append({"method": method, **base, **ctx.judge(scores), **_recovery(scores, ctx.full), "note": ""})
    return rows


def _criterion_row(ctx: PairContext, scores: np.ndarray, null_scores: np.ndarray | None, base: dict) -> dict:
    """The row of the criterion-selected subset (its pooled held-out scores), noting unscored models."""
    note = "" if np.isfinite(scores).all() else f"{int((~np.isfinite(scores)).sum())} models in no scored fold"
    return {
        "method": "criterion",
        **base,
        **ctx.judge(scores, null_scores),
        **_recovery(scores, ctx.full),
        "note": note,
    }


def _full_row(ctx: PairContext, n_items: int) -> dict:
    """The full benchmark's row: the reference every subset is compared with."""
    return {
        "method": "full",
        "k": "all",
        "n_items": n_items,
        **ctx.judge(ctx.full),
        "diff_ci_low": 0.0,
        "diff_ci_high": 0.0,
        "mae_vs_full": 0.0,
        "rho_vs_full": 1.0,
        "verdict": "",
        "note": "",
    }
