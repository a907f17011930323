"""Head / long-tail halves by the anchor entities' triple counts (paper section 4.3).

The published files show how the split was made: each rule contributes the same number of questions
to Head and Longtail, and within every rule the least popular Head question is at least as popular as
the most popular Longtail one. So the split is made per rule: questions are ordered by popularity
(descending, ties by question id), the first half is ``head`` and the second half ``longtail``; with an
odd count the median question is marked ``middle`` and belongs to neither, keeping the halves equal.
Popularity is the triple count (truthy ``wdt:`` statements) of the anchor entity in the KG source;
with several anchors, the least popular one counts.
"""

from __future__ import annotations

import pandas as pd


def assign_splits(
    table: pd.DataFrame, group: str = "rule_id", popularity: str = "popularity", key: str = "question_id"
) -> pd.Series:
    """Split label (``head`` / ``longtail`` / ``middle``) for every row of ``table``."""
    labels = pd.Series(index=table.index, dtype="object")
    for _, rows in table.groupby(group, sort=False):
        ordered = rows.sort_values([popularity, key], ascending=[False, True]).index
        half = len(ordered) // 2
        labels.loc[ordered[:half]] = "head"
        labels.loc[ordered[len(ordered) - half :]] = "longtail"
        if len(ordered) % 2:
            labels.loc[ordered[half]] = "middle"
    return labels
