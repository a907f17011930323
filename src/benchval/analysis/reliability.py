"""How reliable is each task's ranking of the models, and what does that cap? (docs/analysis.md,
"Task reliability").

Classical test theory across models: a model's observed score is its true score plus sampling
error (the task's items are a sample). Per task and metric, over the study's models with a score:

* observed variance S^2 (ddof = 1) of the scores across models;
* mean sampling variance v = mean over models of the variance of the model's score, from the item
  bootstrap where the items are known (scored studies), else binomial p (1 - p) / n with the task's
  declared item count n (imported tables: ``studies.<study>.tasks.<task>.n_items``);
* between-model (true-score) variance S^2 - v, and the reliability
  (S^2 - v) / ((S^2 - v) + v) = 1 - v / S^2, clipped at 0 (noted) when v exceeds S^2.

A correlation between tasks a and b cannot exceed sqrt(rel_a * rel_b) in expectation (Spearman's
attenuation): the ``ceiling`` column of every correlation table. Where item-level results exist for
at least ``min_models`` models, a split-half estimate sits beside it: the items are split at random
into halves ``n_splits`` times, each model scored on each half, the Pearson correlation of the halves
across models stepped up with Spearman-Brown (2 r / (1 + r)), and the mean over the splits reported.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from benchval.evaluation.item_bootstrap import METRIC_FUNCTIONS, bootstrap_metric, item_rng

COLUMNS = [
    "metric",
    "task",
    "role",
    "n_models",
    "n_items",
    "variance_source",
    "observed_var",
    "mean_sampling_var",
    "between_var",
    "reliability",
    "split_half",
    "n_splits",
    "note",
]


@dataclass(frozen=True)
class ItemResults:
    """One task's item-level results: the labels and every model's predictions on the same items."""

    labels: np.ndarray  # n_items
    predictions: dict[str, np.ndarray]  # model -> n_items predicted option indices


def classical_reliability(scores: np.ndarray, sampling_var: np.ndarray) -> tuple[dict, str]:
    """(observed_var, mean_sampling_var, between_var, reliability) and a note, from per-model scores and
    their sampling variances (NaN entries are models without a score)."""
    keep = np.isfinite(scores) & np.isfinite(sampling_var)
    scores, sampling_var = scores[keep], sampling_var[keep]
    if scores.size < 2:
        nan = dict.fromkeys(("observed_var", "mean_sampling_var", "between_var", "reliability"), np.nan)
        return nan, f"only {scores.size} model(s) with a score and a sampling variance"
    observed, noise = float(np.var(scores, ddof=1)), float(np.mean(sampling_var))
    values = {"observed_var": observed, "mean_sampling_var": noise, "between_var": observed - noise}
    if observed == 0:
        return {**values, "reliability": np.nan}, "constant scores: reliability undefined"
    reliability = 1.0 - noise / observed
    if reliability < 0:
        return {**values, "reliability": 0.0}, "sampling variance exceeds the observed variance: reliability set to 0"
    return {**values, "reliability": reliability}, ""


def binomial_variance(scores: np.ndarray, n_items: float) -> np.ndarray:
    """p (1 - p) / n: the sampling variance of a proportion of n independent items (an upper bound for
    a mean of scores in [0, 1] such as TruthfulQA's mc2)."""
    return np.asarray(scores, dtype=float) * (1.0 - np.asarray(scores, dtype=float)) / float(n_items)


def bootstrap_variances(metric: str, results: ItemResults, models, seed: int, n_boot: int, task: str) -> np.ndarray:
    """Per model, the item-bootstrap variance of ``metric`` (the same resamples for every model)."""
    variances = []
    for model in models:
        if model not in results.predictions:
            variances.append(np.nan)
            continue
        rng = item_rng(seed, "reliability", task)
        replicates = bootstrap_metric(metric, results.labels, results.predictions[model], rng, n_boot)
        variances.append(float(np.nanvar(replicates, ddof=1)))
    return np.array(variances)


def split_half(metric: str, results: ItemResults, models, rng: np.random.Generator, n_splits: int) -> float:
    """Mean over random item splits of the Spearman-Brown stepped-up correlation of the halves' scores."""
    n_items = len(results.labels)
    halves = np.zeros((n_splits, n_items))
    for row in halves:
        row[rng.permutation(n_items)[: n_items // 2]] = 1.0
    score = METRIC_FUNCTIONS[metric]
    first = np.column_stack([score(halves, results.labels, results.predictions[m]) for m in models])
    second = np.column_stack([score(1.0 - halves, results.labels, results.predictions[m]) for m in models])
    first, second = first - first.mean(axis=1, keepdims=True), second - second.mean(axis=1, keepdims=True)
    norm = np.sqrt((first**2).sum(axis=1) * (second**2).sum(axis=1))
    r = np.divide((first * second).sum(axis=1), norm, out=np.full(n_splits, np.nan), where=norm > 0)
    stepped = 2.0 * r / (1.0 + r)
    return float(np.nanmean(stepped)) if np.isfinite(stepped).any() else np.nan


def task_row(
    metric: str,
    task: str,
    role: str,
    scores: pd.Series,
    results: ItemResults | None,
    n_items: int | None,
    settings: dict,
) -> dict:
    """The reliability row of one task and metric; ``scores``: model -> score (NaN = none)."""
    scores = scores.dropna()
    models = list(scores.index)
    row = {"metric": metric, "task": task, "role": role, "n_models": len(models), "split_half": np.nan, "n_splits": 0}
    notes = []
    if results is not None and metric in METRIC_FUNCTIONS:
        row.update(n_items=len(results.labels), variance_source="item_bootstrap")
        seed, n_boot = int(settings["seed"]), int(settings["n_bootstrap"])
        variances = bootstrap_variances(metric, results, models, seed, n_boot, task)
        with_items = [m for m in models if m in results.predictions]
        if len(with_items) >= settings["min_models"] and len(results.labels) >= 2:
            rng = item_rng(seed, "split_half", task, metric)
            row.update(split_half=split_half(metric, results, with_items, rng, settings["n_splits"]))
            row["n_splits"] = settings["n_splits"]
        else:
            notes.append(
                f"split-half: item-level results for {len(with_items)} model(s) (< min_models={settings['min_models']})"
            )
    elif n_items:
        row.update(n_items=int(n_items), variance_source="binomial")
        variances = binomial_variance(scores.to_numpy(float), n_items)
        notes.append("split-half: no item-level results")
    else:
        row.update(n_items=np.nan, variance_source="none")
        variances = np.full(len(models), np.nan)
        notes.append("no items and no declared item count (studies.<study>.tasks.<task>.n_items): no sampling variance")
    values, note = classical_reliability(scores.to_numpy(float), variances)
    if row["variance_source"] == "none":
        note = ""  # the missing sampling variance is the reason
    row.update(values)
    row["note"] = "; ".join([n for n in (note, *notes) if n])
    return row


def reliability_table(
    study, metrics, item_results: dict[str, ItemResults], item_counts: dict[str, int], settings: dict
) -> pd.DataFrame:
    """Every task's reliability per metric. ``item_results``: task -> ItemResults (scored tasks);
    ``item_counts``: task -> declared item count (imported tasks); ``settings``: seed, n_bootstrap,
    min_models, n_splits."""
    rows = []
    for metric in metrics:
        wide = study.wide(metric)
        for task in wide.columns:
            role = str(study.tasks.at[task, "role"])
            rows.append(
                task_row(metric, task, role, wide[task], item_results.get(task), item_counts.get(task), settings)
            )
    return pd.DataFrame.from_records(rows, columns=COLUMNS)


#: correlation tables and the two columns naming the tasks a correlation joins
CORRELATION_TABLES = {
    "correlations_cs_cs": ("task_a", "task_b"),
    "correlations_cs_downstream": ("benchmark", "downstream"),
    "partial_spearman": ("benchmark", "downstream"),
    "revision_pairs": ("original", "reworked"),
    "delta_rho": ("original", "downstream"),
}


def add_ceiling(table: pd.DataFrame, reliability: pd.DataFrame, columns: tuple[str, str], bar: float) -> pd.DataFrame:
    """``table`` with ``reliability_<a>``, ``reliability_<b>``, ``ceiling`` = sqrt(rel_a rel_b) and
    ``ceiling_below_bar`` (empty where a reliability is missing) for the tasks in ``columns``."""
    lookup = reliability.set_index(["metric", "task"])["reliability"]
    table = table.copy()
    for column in columns:
        keys = list(zip(table["metric"], table[column]))
        table[f"reliability_{column}"] = [float(lookup.get(key, np.nan)) for key in keys]
    product = table[f"reliability_{columns[0]}"] * table[f"reliability_{columns[1]}"]
    table["ceiling"] = np.sqrt(product)
    table["ceiling_below_bar"] = [None if pd.isna(c) else bool(c < bar) for c in table["ceiling"]]
    return table


def add_ceilings(tables: dict[str, pd.DataFrame], reliability: pd.DataFrame, bar: float) -> None:
    """Add the ceiling columns to every correlation table in ``tables`` (in place)."""
    for name, columns in CORRELATION_TABLES.items():
        if name in tables:
            tables[name] = add_ceiling(tables[name], reliability, columns, bar)
