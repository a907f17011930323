"""Trait and method of every atlas column (docs/atlas.md, "Method apart from trait"): the reviewed table
``atlas.methods`` (config/atlas/column_methods.csv) gives each leaderboard column the benchmark it measures
(``trait``: one name for one benchmark on several boards, HFV1_HellaSwag = HELM_HellaSwag = olmes_hellaswag)
and how its scores are made (``method``: human preference votes, an LLM judge, multiple choice, exact match,
execution, ...), each with its evidence in words.

Two uses, both stated in the docs:

* a claim that one column predicts another says whether the two share a method (Campbell and Fiske's
  multitrait-multimethod view: two chat benchmarks judged by GPT-4 agree partly because one judge scores
  both), and the headline ranks only cross-method evidence;
* the general factor g of a pair leaves out every column measuring the pair's own traits elsewhere
  (another harness or leaderboard), and columns that are exact copies of one of them, found by identical
  values (:func:`identical_copies`), so that g never contains the predictor or the criterion itself.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

METHODS = (
    "human_preference",
    "llm_judge",
    "multiple_choice",
    "exact_match",
    "rule_check",
    "execution",
    "reference_overlap",
    "reference_score",
    "probing",
    "mixed",
)
METHOD_COLUMNS = ("column", "leaderboard", "trait", "method", "evidence")


class MethodTableError(ValueError):
    """A bad or incomplete method table; the message names the file, line and column."""


def load_methods(path: str | Path, columns=None) -> pd.DataFrame:
    """The reviewed table indexed by column; every row needs a trait, a known method and evidence, and every
    one of ``columns`` (the atlas's columns) needs a row."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in METHOD_COLUMNS if c not in table.columns]
    if missing:
        raise MethodTableError(f"{path}: missing column(s) {missing}")
    for index, row in table.iterrows():
        empty = [c for c in ("column", "trait", "method", "evidence") if not row[c].strip()]
        if empty:
            raise MethodTableError(f"{path}: line {index + 2}: empty {empty}")
        if row["method"] not in METHODS:
            raise MethodTableError(
                f"{path}: line {index + 2}: method {row['method']!r} of {row['column']!r} is not one of {list(METHODS)}"
            )
    twice = table["column"].duplicated()
    if twice.any():
        raise MethodTableError(
            f"{path}: line {twice.idxmax() + 2}: column {table.at[twice.idxmax(), 'column']!r} twice"
        )
    table = table.set_index("column")
    absent = sorted(set(() if columns is None else columns) - set(table.index))
    if absent:
        raise MethodTableError(f"{path}: no row for the atlas column(s) {absent[:5]} ({len(absent)} in all)")
    return table


def identical_copies(
    wide: pd.DataFrame, min_models: int = 5, share: float = 0.8, decimals: int = 4
) -> list[tuple[str, str]]:
    """Pairs of columns of which one copies the other: on at least ``min_models`` shared models, at least
    ``share`` of them hold the same value up to a power-of-ten scale (BLZ's 0.8416 for Open LLM v1's 84.16;
    the rest are re-evaluations), compared to ``decimals`` significant digits."""
    values = wide.to_numpy(float)
    present = np.isfinite(values)
    counts = present.T.astype(float) @ present.astype(float)
    columns = list(wide.columns)
    pairs = []
    for i, j in zip(*np.nonzero(np.triu(counts >= min_models, k=1))):
        shared = present[:, i] & present[:, j]
        x, y = values[shared, i], values[shared, j]
        with np.errstate(divide="ignore", invalid="ignore"):
            power = np.round(np.log10(np.abs(y / x)))  # each model's power-of-ten scale between the two
        if not np.isfinite(power).any():
            continue
        scale = 10.0 ** np.median(power[np.isfinite(power)])
        if np.isclose(x * scale, y, rtol=10.0**-decimals, atol=0.0).mean() >= share:
            pairs.append((columns[i], columns[j]))
    return pairs


def trait_groups(methods: pd.DataFrame, copies=()) -> dict:
    """Column -> its trait, with the traits of exact copies merged (a copy measures what its source does)."""
    trait = methods["trait"].to_dict()
    for a, b in copies:
        if a in trait and b in trait and trait[a] != trait[b]:
            old, new = trait[b], trait[a]
            trait = {c: (new if t == old else t) for c, t in trait.items()}
    return trait


def method_columns(frame: pd.DataFrame, methods: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """``frame`` with method_a, method_b and same_method for its columns ``a`` and ``b`` (a column without a
    row: method missing, same_method missing)."""
    method = methods["method"]
    out = frame.assign(method_a=frame[a].map(method), method_b=frame[b].map(method))
    known = out["method_a"].notna() & out["method_b"].notna()
    out["same_method"] = (out["method_a"] == out["method_b"]).where(known)
    return out
