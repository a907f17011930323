"""One measure, one vote (docs/atlas.md): sibling columns form a group; an FDR family and a ranking count a
group once.

A column's group is its leaderboard (the columns of one leaderboard share its models, prompts and harness:
HELM AIRBench's 17 safety categories are one vote, not 17), except that

* a column of a *collection* (``atlas.measure_groups.collections``: a file that copies other leaderboards'
  numbers, e.g. BLZ) is its own group, and
* a column declared another snapshot of a measure (``atlas.same_measure``: BLZ_mt_bench -> MT-bench) joins
  the group of that measure, so MT-bench in two files is one group.

Multiple testing is hierarchical (stated): each (group, group) pair is one hypothesis, tested by the Simes
combination of its member pairs' p-values; Benjamini-Hochberg runs over those group-pair p-values; a pair's
q-value is the larger of its group pair's q and the BH q within its group pair. So a family of many sibling
pairs enters the atlas-wide correction once, and a pair is a discovery only where its group pair is one. Of
the pairs of one group pair, one is its *lead* (the smallest p): the report names leads only, so an aggregate
and its parts (one group) are never two discoveries.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis.fdr import benjamini_hochberg


def column_groups(leaderboard: dict, same: dict | None, collections=()) -> dict:
    """Column -> its one-measure-one-vote group name."""
    groups = {c: (f"{lb}:{c}" if lb in set(collections) else lb) for c, lb in leaderboard.items()}
    for column, target in (same or {}).items():
        if column in groups and target in groups:
            groups[column] = groups[target]
    return groups


def siblings(column: str, groups: dict) -> set:
    """The column and every column of its group."""
    return {c for c, g in groups.items() if g == groups[column]}


def simes(p_values: np.ndarray) -> float:
    """Simes' combined p-value of a set of p-values."""
    ordered = np.sort(np.asarray(p_values, float))
    return float(min(1.0, np.min(len(ordered) * ordered / np.arange(1, len(ordered) + 1))))


def group_pair_labels(group_a: pd.Series, group_b: pd.Series) -> pd.Series:
    """An order-free label of each row's (group, group) pair."""
    return pd.Series([" ~ ".join(sorted((a, b))) for a, b in zip(group_a, group_b)], index=group_a.index)


def hierarchical_q(p: pd.Series, labels: pd.Series) -> tuple[pd.Series, pd.Series]:
    """(q per pair, lead per pair) by the module's two-level rule; NaN p stays NaN and is never a lead."""
    q = pd.Series(np.nan, index=p.index)
    lead = pd.Series(False, index=p.index)
    defined = p.notna()
    if not defined.any():
        return q, lead
    members = p[defined].groupby(labels[defined])
    group_p = members.apply(lambda s: simes(s.to_numpy()))
    group_q = pd.Series(benjamini_hochberg(group_p.to_numpy()), index=group_p.index)
    for label, values in members:
        within = benjamini_hochberg(values.to_numpy())
        q.loc[values.index] = np.maximum(within, group_q[label])
        lead.loc[values.idxmin()] = True
    return q, lead
