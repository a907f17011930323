"""Paired comparison of two models on the same items: "is A better than B here?" with its uncertainty.

The input is the tidy item-level frame every reader returns (columns ``source, task, item_id, model,
correct`` with ``correct`` 0/1, optional ``family``; :func:`check_tidy`). For two models on one task, only
the items both answered enter (an item either lacks is counted in ``n_items_unpaired``, never imputed):

* ``difference`` = accuracy(A) - accuracy(B) on the shared items;
* its **paired bootstrap** interval: the items are resampled with replacement and both models keep their
  answers to each drawn item (the difference of a resample is the mean of ``correct_A - correct_B`` over
  it), percentile interval at ``ci_level``; seeded by ``seed`` and the task, so every pair of models of
  a task draws the same resamples;
* **McNemar's test** on the discordant items (b = A right and B wrong, c = A wrong and B right):
  ``exact`` = two-sided binomial test of b against Binomial(b + c, 1/2), ``chi2`` = (|b - c| - 1)^2 / (b + c)
  on 1 degree of freedom (continuity-corrected). Both equal
  ``statsmodels.stats.contingency_tables.mcnemar`` (tested); ``b + c = 0`` gives p = 1 exactly and a
  missing chi2 (statsmodels divides by zero there), said in ``note``.

Pooled over a study's tasks (:func:`pooled_comparison`): the difference of the item-weighted accuracies
(every item of every task counts once), the paired bootstrap resampling items within each task
(stratified, so each task keeps its size), and McNemar's test on the summed discordant counts.

Why paired: an unpaired test treats A's and B's answers as independent samples and so ignores that
both answered the same items; when the models agree on most items the paired interval is much narrower
(lm-evaluation-harness issue #3831).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from benchval.evaluation.item_bootstrap import CHUNK, item_rng, resample_counts

TIDY_COLUMNS = ("source", "task", "item_id", "model", "correct")
PAIRED_COLUMNS = [
    "source",
    "task",
    "model_a",
    "model_b",
    "n_items",
    "n_items_unpaired",
    "accuracy_a",
    "accuracy_b",
    "difference",
    "ci_low",
    "ci_high",
    "a_only_correct",
    "b_only_correct",
    "p_mcnemar_exact",
    "p_mcnemar_chi2",
    "chi2",
    "n_boot",
    "note",
]


@dataclass(frozen=True)
class PairedSettings:
    seed: int
    n_bootstrap: int
    ci_level: float


def check_tidy(frame: pd.DataFrame, source: str = "item frame") -> pd.DataFrame:
    """``frame`` if it has the tidy columns, 0/1 ``correct`` and one row per (source, task, item, model),
    else a ValueError naming ``source`` and what is wrong."""
    missing = [column for column in TIDY_COLUMNS if column not in frame.columns]
    if missing:
        raise ValueError(f"{source}: lacks column(s) {missing}; a tidy item frame has {list(TIDY_COLUMNS)}")
    correct = pd.to_numeric(frame["correct"], errors="coerce")
    bad = frame.index[~correct.isin([0.0, 1.0])]
    if len(bad):
        row = frame.loc[bad[0]]
        raise ValueError(
            f"{source}: {len(bad)} row(s) with 'correct' not 0 or 1, first: task {row['task']!r} item "
            f"{row['item_id']!r} model {row['model']!r} correct={row['correct']!r}"
        )
    keys = ["source", "task", "item_id", "model"]
    repeated = frame.duplicated(keys, keep=False)
    if repeated.any():
        first = frame.loc[repeated, keys].iloc[0].to_dict()
        raise ValueError(f"{source}: {int(repeated.sum())} rows repeat a (source, task, item, model), first {first}")
    return frame.assign(correct=correct)


def mcnemar_test(a_only: int, b_only: int) -> tuple[float, float, float]:
    """(exact two-sided p, continuity-corrected chi2 statistic, its p) from the discordant counts."""
    discordant = a_only + b_only
    if discordant == 0:
        return 1.0, np.nan, np.nan
    exact = float(stats.binomtest(a_only, discordant, 0.5).pvalue)
    chi2 = (abs(a_only - b_only) - 1.0) ** 2 / discordant
    return exact, float(chi2), float(stats.chi2.sf(chi2, 1))


def paired_difference_replicates(differences: list[np.ndarray], rng: np.random.Generator, n_boot: int) -> np.ndarray:
    """``n_boot`` replicates of the item-weighted mean of ``differences`` (one array per task, each
    resampled within itself: a stratified paired bootstrap)."""
    total = sum(len(d) for d in differences)
    sums = np.zeros(n_boot)
    for per_item in differences:
        for start in range(0, n_boot, CHUNK):
            size = min(CHUNK, n_boot - start)
            sums[start : start + size] += resample_counts(rng, len(per_item), size) @ per_item
    return sums / total


def _interval(replicates: np.ndarray, level: float) -> tuple[float, float]:
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail])
    return float(low), float(high)


def _aligned(frame: pd.DataFrame, model_a: str, model_b: str) -> tuple[pd.DataFrame, int]:
    """Items both models answered (columns a, b) and the number of items only one answered."""
    wide = frame[frame["model"].isin([model_a, model_b])].pivot(index="item_id", columns="model", values="correct")
    wide = wide.reindex(columns=[model_a, model_b])
    both = wide.dropna()
    return both.set_axis(["a", "b"], axis=1), int(len(wide) - len(both))


def _row(source, task, model_a, model_b, pairs, unpaired, settings, rng, strata=None) -> dict:
    """One row of :data:`PAIRED_COLUMNS`; ``strata``: per-task differences to resample within (pooled)."""
    a_only = int(((pairs["a"] == 1) & (pairs["b"] == 0)).sum())
    b_only = int(((pairs["a"] == 0) & (pairs["b"] == 1)).sum())
    base = {"source": source, "task": task, "model_a": model_a, "model_b": model_b, "n_items": len(pairs)}
    base["n_items_unpaired"] = unpaired
    if pairs.empty:
        return {**base, "n_boot": 0, "note": "no item answered by both models"}
    exact, chi2, p_chi2 = mcnemar_test(a_only, b_only)
    strata = strata or [(pairs["a"] - pairs["b"]).to_numpy(float)]
    low, high = _interval(paired_difference_replicates(strata, rng, settings.n_bootstrap), settings.ci_level)
    return {
        **base,
        "accuracy_a": float(pairs["a"].mean()),
        "accuracy_b": float(pairs["b"].mean()),
        "difference": float((pairs["a"] - pairs["b"]).mean()),
        "ci_low": low,
        "ci_high": high,
        "a_only_correct": a_only,
        "b_only_correct": b_only,
        "p_mcnemar_exact": exact,
        "p_mcnemar_chi2": p_chi2,
        "chi2": chi2,
        "n_boot": settings.n_bootstrap,
        "note": "" if a_only + b_only else "no discordant item: the models agree on every shared item",
    }


def task_comparison(
    frame: pd.DataFrame, source: str, task: str, model_a: str, model_b: str, settings: PairedSettings
) -> dict:
    """One row of :data:`PAIRED_COLUMNS`: ``model_a`` against ``model_b`` on one task of ``frame``."""
    own = frame[(frame["source"] == source) & (frame["task"] == task)]
    pairs, unpaired = _aligned(own, model_a, model_b)
    return _row(source, task, model_a, model_b, pairs, unpaired, settings, item_rng(settings.seed, "paired", task))


def pooled_comparison(frame: pd.DataFrame, model_a: str, model_b: str, settings: PairedSettings) -> dict:
    """``model_a`` against ``model_b`` over every task of ``frame`` (task = ``"(pooled)"``): item-weighted
    difference, stratified paired bootstrap, McNemar on the summed discordant counts."""
    per_task = [_aligned(own, model_a, model_b) for _, own in frame.groupby(["source", "task"], sort=True)]
    pairs = pd.concat([p for p, _ in per_task], ignore_index=True) if per_task else pd.DataFrame(columns=["a", "b"])
    unpaired = sum(u for _, u in per_task)
    differences = [(p["a"] - p["b"]).to_numpy(float) for p, _ in per_task if len(p)]
    rng = item_rng(settings.seed, "paired", "(pooled)")
    row = _row("(pooled)", "(pooled)", model_a, model_b, pairs, unpaired, settings, rng, differences)
    if pairs.empty:
        return row
    row["note"] = (row["note"] + "; " if row["note"] else "") + f"pooled over {len(differences)} task(s)"
    return row


def paired_table(
    frame: pd.DataFrame, pairs: list[tuple[str, str]], settings: PairedSettings, source: str = "item frame"
) -> pd.DataFrame:
    """Every (model_a, model_b) of ``pairs`` on every task of ``frame`` where both answered, then pooled."""
    frame = check_tidy(frame, source)
    known = set(frame["model"])
    unknown = sorted({m for pair in pairs for m in pair} - known)
    if unknown:
        raise ValueError(f"{source}: model(s) {unknown} have no item; known: {sorted(known)}")
    rows = []
    for model_a, model_b in pairs:
        for (src, task), own in frame.groupby(["source", "task"], sort=True):
            if {model_a, model_b} <= set(own["model"]):
                rows.append(task_comparison(own, src, task, model_a, model_b, settings))
        rows.append(pooled_comparison(frame, model_a, model_b, settings))
    return pd.DataFrame.from_records(rows, columns=PAIRED_COLUMNS)
