"""Rank resolution: which adjacent entries of a ranked column are separable, and the tie groups that follow.

A leaderboard prints its models in strict order; the data often do not support it (HELM issue #4336: 0 of
89 adjacent pairs of HELM Lite separable). Here the entries are sorted best first and each adjacent pair
(rank i, rank i+1) is called separable or not:

* **paired** (:func:`adjacent_from_items`, where item-level results exist): the paired bootstrap interval of
  the accuracy difference (:mod:`benchval.evaluation.paired`) excludes 0 and McNemar's exact test rejects
  at the same level;
* **from intervals** (:func:`adjacent_from_intervals`, where only a value and its interval exist): the two
  intervals do not overlap. This is conservative (two overlapping 95 % intervals can still differ at 5 %),
  which is said in the ``method`` column;
* **not measurable** where an entry has no interval (a leaderboard file that prints Elo alone): missing
  (``separable`` empty) with the reason, never counted as separable or tied.

Tie groups (:func:`tie_groups`): a new group starts after every separable adjacent pair, so an entry's
group is "which models the data cannot order it against, transitively"; a group prints as the rank range
it spans (``"2-4"``), a single entry as its rank (``"1"``). An unmeasurable pair also ends no group: the
entries stay together, and the group says ``?`` (:func:`rank_labels`).
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from benchval.evaluation.paired import PairedSettings, task_comparison

SCOREBOARD_RANK_COLUMNS = ["rank", "rank_group", "rank_range", "separable_from_next", "rank_method"]
RESOLUTION_COLUMNS = ["rank", "rank_group", "rank_range", "separable_from_next", "method", "reason"]


def tie_groups(separable: list[bool | None]) -> list[int]:
    """Group number (1-based) of each of ``len(separable) + 1`` ranked entries: a group ends after each
    adjacent pair that is separable (True); False and None (not measurable) keep the entries together."""
    groups = [1]
    for flag in separable:
        groups.append(groups[-1] + 1 if flag is True else groups[-1])
    return groups


def rank_labels(groups: list[int], separable: list[bool | None]) -> list[str]:
    """The rank range of each entry's group (``"1"``, ``"2-4"``; ``"2-4?"`` where a pair inside the group
    was not measurable, so that the group may be finer than printed)."""
    positions: dict[int, list[int]] = {}
    for rank, group in enumerate(groups, start=1):
        positions.setdefault(group, []).append(rank)
    unknown = {groups[i] for i, flag in enumerate(separable) if flag is None}
    labels = {}
    for group, ranks in positions.items():
        text = str(ranks[0]) if len(ranks) == 1 else f"{ranks[0]}-{ranks[-1]}"
        labels[group] = text + ("?" if group in unknown else "")
    return [labels[g] for g in groups]


def _resolution(order: pd.Index, separable: list[bool | None], method: list[str], reason: list[str]) -> pd.DataFrame:
    groups = tie_groups(separable)
    return pd.DataFrame(
        {
            "rank": np.arange(1, len(order) + 1),
            "rank_group": groups,
            "rank_range": rank_labels(groups, separable),
            "separable_from_next": pd.array([*separable, None], dtype="boolean"),
            "method": [*method, ""],
            "reason": [*reason, "last entry"],
        },
        index=order,
    )


def adjacent_from_intervals(frame: pd.DataFrame, value: str, low: str, high: str) -> pd.DataFrame:
    """:data:`RESOLUTION_COLUMNS` for the rows of ``frame`` (index = entry), best (highest ``value``)
    first; adjacent entries separable when their ``[low, high]`` intervals do not overlap."""
    ranked = frame[frame[value].notna()].sort_values(value, ascending=False, kind="mergesort")
    separable, method, reason = [], [], []
    for upper, lower in zip(ranked.index[:-1], ranked.index[1:]):
        bounds = [ranked.at[upper, low], ranked.at[lower, high]]
        if not np.all(np.isfinite(np.asarray(bounds, dtype=float))):
            separable.append(None)
            method.append("intervals")
            reason.append("no interval for one of the two entries: not measurable")
            continue
        separable.append(bool(bounds[0] > bounds[1]))
        method.append("intervals (non-overlap; conservative)")
        reason.append(f"low of {upper} {bounds[0]:.4g} vs high of {lower} {bounds[1]:.4g}")
    return _resolution(ranked.index, separable, method, reason)


def adjacent_from_items(
    items: pd.DataFrame,
    accuracy: pd.Series,
    settings: PairedSettings,
    source: str,
    task: str,
    compare: Callable[..., dict] = task_comparison,
) -> pd.DataFrame:
    """:data:`RESOLUTION_COLUMNS` for the models of ``accuracy`` (index = model), best first; adjacent
    models separable when the paired bootstrap interval of their accuracy difference on the items of
    ``items`` (tidy frame of one source and task) excludes 0 and McNemar's exact test rejects at
    1 - ``ci_level`` (both: with few discordant items the percentile interval can exclude 0 where the
    exact test does not, e.g. 5 against 0 discordant items, p = 0.0625). ``compare``: the comparison
    (:func:`benchval.evaluation.paired.task_comparison`, or a caller's cache of its rows)."""
    ranked = accuracy.dropna().sort_values(ascending=False, kind="mergesort")
    separable, method, reason = [], [], []
    for upper, lower in zip(ranked.index[:-1], ranked.index[1:]):
        row = compare(items, source, task, upper, lower, settings)
        if row["n_items"] == 0:
            separable.append(None)
            method.append("paired bootstrap")
            reason.append("no shared items: not measurable")
            continue
        excludes_zero = row["ci_low"] > 0 or row["ci_high"] < 0
        separable.append(bool(excludes_zero and row["p_mcnemar_exact"] < 1.0 - settings.ci_level))
        method.append("paired bootstrap and exact McNemar")
        reason.append(
            f"difference {row['difference']:+.4f} [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}], "
            f"McNemar exact p={row['p_mcnemar_exact']:.3g}, n={row['n_items']}"
        )
    return _resolution(ranked.index, separable, method, reason)


def count_separable(resolution: pd.DataFrame) -> tuple[int, int, int]:
    """(separable adjacent pairs, adjacent pairs measured, adjacent pairs in all)."""
    ranked = resolution[resolution["rank"].notna()].sort_values("rank")
    flags = ranked["separable_from_next"].iloc[:-1]
    return int(flags.fillna(False).sum()), int(flags.notna().sum()), int(len(flags))


def scoreboard_ranks(table: pd.DataFrame, items: pd.DataFrame, settings: PairedSettings) -> pd.DataFrame:
    """``table`` (benchval.analysis.scoreboard) with the rank columns per (task, metric): accuracy paired on
    the tidy ``items`` frame (every model's correctness per item), other metrics from their intervals."""
    parts = []
    for (task, metric), rows in table.groupby(["task", "metric"], sort=False):
        rows = rows.set_index("model")
        own = items[items["task"] == task]
        if metric == "accuracy" and len(own):
            resolution = adjacent_from_items(own, rows["value"], settings, own["source"].iloc[0], task)
        else:
            resolution = adjacent_from_intervals(rows, "value", "ci_low", "ci_high")
        parts.append(rows.join(resolution.drop(columns="reason").rename(columns={"method": "rank_method"})))
    if not parts:
        return table.assign(rank=[], rank_group=[], rank_range=[], separable_from_next=[], rank_method=[])
    ranked = pd.concat(parts).reset_index()
    order = {key: i for i, key in enumerate(zip(table["model"], table["task"], table["metric"]))}
    ranked["_order"] = [order[key] for key in zip(ranked["model"], ranked["task"], ranked["metric"])]
    return ranked.sort_values("_order").drop(columns="_order")[[*table.columns, *SCOREBOARD_RANK_COLUMNS]]
