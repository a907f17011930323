"""Which IRT fit chooses items, which items it may choose, and tinyBenchmarks-style anchor points
(docs/items.md, "IRT chosen and checked"). Reads the fits of :mod:`benchval.items.irt`; kept apart from
it so that the IRT rule does not rerun when the selection changes.

* :func:`choose_model`: the fit of least BIC (or the one the config names), per benchmark.
* :func:`at_bound`: the items whose estimate sits at mirt's bounds (a = 5, |b| = 6): such an estimate is
  a bound, not a measurement, and the item is never selected (its information is set missing).
* :func:`anchor_points`: tinyBenchmarks' anchor points (Polo et al. 2024): k clusters of the items'
  correctness vectors over the models (k-means), each represented by the item nearest its centre,
  weighted by its cluster's size.
* :func:`pirt_estimate`: the IRT estimate of the full score from the anchors (tinyBenchmarks' p-IRT):
  a model's ability by EAP from its anchor responses, then its observed anchor responses plus the fit's
  predicted probability of every other item, averaged over all items.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from benchval.items.irt import information, probability

#: mirt's bounds on the estimates (a discrimination at the upper bound, a difficulty at either)
DISCRIMINATION_BOUND = 5.0
DIFFICULTY_BOUND = 6.0
_AT = 1e-3  # an estimate within this of a bound sits at it
THETA_GRID = np.linspace(-5.0, 5.0, 101)
TOP = 100  # irt_choice.csv: how many of a fit's TOP most informative items sit at a bound


def choose_model(fits: pd.DataFrame, rule: str) -> str:
    """The IRT model that chooses items: least ``bic`` (or ``aic``) of ``fits`` (fit.csv), or ``rule``
    itself when it names a model (``1PL``/``2PL``)."""
    if rule in ("bic", "aic"):
        return str(fits.loc[fits[rule].idxmin(), "model"])
    if rule not in set(fits["model"]):
        raise ValueError(f"items.irt.selection_model: {rule!r} was not fitted (fitted: {sorted(fits['model'])})")
    return rule


def at_bound(items: pd.DataFrame) -> pd.Series:
    """True for an item whose discrimination or difficulty sits at mirt's bound."""
    a = items["discrimination"].to_numpy(float)
    b = items["difficulty"].to_numpy(float)
    flags = (a >= DISCRIMINATION_BOUND - _AT) | (np.abs(b) >= DIFFICULTY_BOUND - _AT)
    return pd.Series(flags, index=items.index, name="at_bound")


@dataclass(frozen=True)
class IrtSelection:
    """The chosen fit of one benchmark: its items (discrimination, difficulty, at_bound) and the
    information of each item summed over the respondents' abilities (missing at a bound)."""

    model: str
    items: pd.DataFrame
    information: pd.Series
    bound_counts: dict
    anchors: dict = field(default_factory=dict)  # k -> anchor item ids (:func:`add_anchor_sets`)


def add_anchor_sets(selection: IrtSelection, matrix: pd.DataFrame, ks: list[int], seed: int) -> None:
    """The anchor items at each k, clustered once per benchmark on all its models (``matrix``: models x
    items), among the items the fit may select (off a bound)."""
    usable = selection.information.reindex(matrix.columns).notna().to_numpy()
    for k in ks:
        if k <= usable.sum():
            anchors, _ = anchor_points(matrix.to_numpy(float), usable, k, seed + k)
            selection.anchors[k] = list(matrix.columns[anchors])


def irt_selection(item_params: pd.DataFrame, abilities: pd.DataFrame, fits: pd.DataFrame, rule: str) -> IrtSelection:
    """The chosen model's items and information, and the items at a bound of every fitted model."""
    model = choose_model(fits, rule)
    counts = {}
    for name, rows in item_params.groupby("irt_model"):
        flags = at_bound(rows)
        counts[f"{name}_at_bound"] = int(flags.sum())
        thetas = abilities.loc[abilities["irt_model"] == name, "theta"].to_numpy(float)
        info = information(thetas, rows["discrimination"].to_numpy(float), rows["difficulty"].to_numpy(float))
        top = np.argsort(-info.sum(axis=0), kind="stable")[:TOP]
        counts[f"{name}_top{TOP}_at_bound"] = int(flags.to_numpy()[top].sum())  # chosen at a bound, bounds allowed
    items = item_params[item_params["irt_model"] == model].set_index("item_id")
    items = items.assign(at_bound=at_bound(items))
    thetas = abilities.loc[abilities["irt_model"] == model, "theta"].to_numpy(float)
    info = information(thetas, items["discrimination"].to_numpy(float), items["difficulty"].to_numpy(float)).sum(0)
    info = pd.Series(np.where(items["at_bound"], np.nan, info), index=items.index)
    return IrtSelection(model, items, info, counts)


def anchor_points(values: np.ndarray, candidates: np.ndarray, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(column positions of k anchor items, their weights summing to 1): k-means on the candidate items'
    score vectors over the models (``values``: models x items), the item nearest each centre."""
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits  # a dependency of scikit-learn itself

    pool = np.flatnonzero(candidates)
    points = values[:, pool].T
    k = min(k, len(pool))
    with threadpool_limits(1):  # one thread: on a shared 2-core machine OpenMP spinning costs 10x the CPU time
        fitted = KMeans(n_clusters=k, n_init=1, max_iter=100, random_state=seed).fit(points)
    distance = ((points - fitted.cluster_centers_[fitted.labels_]) ** 2).sum(axis=1)
    anchors, weights = [], []
    for cluster in range(k):
        members = np.flatnonzero(fitted.labels_ == cluster)
        if len(members) == 0:
            continue
        anchors.append(pool[members[np.argmin(distance[members])]])
        weights.append(len(members))
    return np.asarray(anchors), np.asarray(weights, float) / np.sum(weights)


def eap_theta(responses: np.ndarray, discrimination: np.ndarray, difficulty: np.ndarray) -> np.ndarray:
    """EAP ability of each row of ``responses`` (models x items, scores in [0, 1]: a mean over checkpoints
    enters as a fractional Bernoulli outcome) under a N(0, 1) prior, on a grid of -5..5."""
    p = np.clip(probability(THETA_GRID, discrimination, difficulty), 1e-9, 1 - 1e-9)  # grid x items
    loglik = responses @ np.log(p).T + (1.0 - responses) @ np.log(1.0 - p).T  # models x grid
    logpost = loglik + stats.norm.logpdf(THETA_GRID)[None, :]
    weights = np.exp(logpost - logpost.max(axis=1, keepdims=True))
    return (weights * THETA_GRID[None, :]).sum(axis=1) / weights.sum(axis=1)


def pirt_estimate(values: np.ndarray, anchors: np.ndarray, items: pd.DataFrame, constant: np.ndarray) -> np.ndarray:
    """The p-IRT estimate of each model's full score: observed on the anchors, the fit's probability on
    every other item (``items``: the fit's parameters in the columns' order, NaN for an item the fit left
    out; such an item was answered alike by every respondent, ``constant`` holds that answer)."""
    a = items["discrimination"].to_numpy(float)
    b = items["difficulty"].to_numpy(float)
    theta = eap_theta(values[:, anchors], a[anchors], b[anchors])
    fitted = np.isfinite(a)
    predicted = np.tile(constant.astype(float), (len(values), 1))
    predicted[:, fitted] = probability(theta, a[fitted], b[fitted])
    predicted[:, anchors] = values[:, anchors]
    return predicted.mean(axis=1)
