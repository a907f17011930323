"""Which benchmark best predicts a criterion beyond general capability (the human_preference study;
docs/atlas.md).

For each criterion (``atlas.human_preference.criteria``, e.g. Chatbot Arena Elo) every other atlas column
sharing at least ``atlas.min_models`` models with it is a predictor, each on its own shared models
(pairwise: one complete matrix would collapse to a handful of models). Per pair, the statistics of
benchval.atlas.incremental: raw Spearman rho, and the partial Spearman beyond log size, beyond g and beyond g
and log size, each on its own models with its n and a family-clustered bootstrap interval, and the raw rho on
exactly the models of the partial beyond g (``rho_same_population``: closed models have no size, and a model
needs a g, so the partials run on fewer models than the raw rho).

Multiple testing: the hierarchical one-measure-one-vote correction (benchval.atlas.groups) over the study's
raw p-values (``p_fdr``) and over its beyond-g p-values (``q_beyond_g``).

Ranking (``rank``, per criterion, 1 = best): by ``rho_beyond_g``, one rank per group of sibling predictors
(its member with the highest value; the others are listed with the lead's name), and only where the value is
defined on at least ``min_headline_n`` models: an undefined value or one on too few models is never ranked
below a defined one; it is unranked and ``rank_note`` says why. A predictor that is the criterion's own
leaderboard aggregate or another snapshot of the same measure (``atlas.same_measure``) is left out and listed.

Method apart from trait (benchval.atlas.methods): every row has the predictor's and the criterion's method
(``method_a``, ``method_b``, ``same_method``); a predictor sharing the criterion's method (two chat benchmarks
judged by an LLM) is never ranked: shared method is not evidence that one measures what the other claims, so
the ranking holds cross-method evidence only (``rank_note`` says so). A pair of two criteria is one pair:
it is ranked once, under the criterion listed first in ``atlas.human_preference.criteria``; under the other it
is listed with the note where it is counted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm import tqdm

from benchval.analysis.bootstrap import rng_for
from benchval.atlas.general_factor import FactorSettings
from benchval.atlas.groups import column_groups, group_pair_labels, hierarchical_q
from benchval.atlas.incremental import incremental_columns, pair_statistics, population
from benchval.atlas.pairs import aggregate_pair, same_measure

COLUMNS = [
    "criterion",
    "predictor",
    "group_a",
    "group_b",
    "rank",
    "rank_note",
    "method_a",
    "method_b",
    "same_method",
    *incremental_columns(),
    "p_fdr",
    "q_beyond_g",
]


def predictor_table(wide: pd.DataFrame, models: pd.DataFrame, criteria: list[str], context: dict, settings: dict):
    """(ranked predictors of every criterion, predictors left out with their rule). ``models``: registry rows
    (family, size_b) by canonical id; ``group_a`` is the predictor's group, ``group_b`` the criterion's."""
    records, excluded = [], []
    groups = column_groups(context["leaderboard"], context["same_measure"], context["collections"])
    factor = settings.get("factor") or FactorSettings(settings["min_models"])
    people = population(wide, models, groups, factor, context.get("traits"))
    options = {
        **settings,
        "min_clusters": settings["min_clusters"],
        "min_interval_n": settings["min_headline_n"],
    }
    for criterion in tqdm(criteria, desc="human preference (bootstrap)", unit="criterion", mininterval=5):
        if criterion not in wide.columns:
            raise KeyError(f"atlas.human_preference.criteria: {criterion!r} is no atlas column")
        y_all = wide[criterion].to_numpy(float)
        for predictor in wide.columns:
            if predictor == criterion:
                continue
            x_all = wide[predictor].to_numpy(float)
            rows = np.isfinite(x_all) & np.isfinite(y_all)
            if rows.sum() < settings["min_models"]:
                continue
            if aggregate_pair(predictor, criterion, context["leaderboard"], context["aggregates"]) or same_measure(
                predictor, criterion, context["same_measure"]
            ):
                excluded.append(
                    {"criterion": criterion, "predictor": predictor, "rule": "same measure or its aggregate"}
                )
                continue
            rng = rng_for(settings["seed"], "human_preference", criterion, predictor)
            values = pair_statistics(people, predictor, criterion, x_all, y_all, rows, options, rng)
            names = {"group_a": groups[predictor], "group_b": groups[criterion]}
            records.append({"criterion": criterion, "predictor": predictor, **names, **values})
    table = pd.DataFrame.from_records(records)
    labels = group_pair_labels(table["group_a"], table["group_b"])
    table["p_fdr"], _ = hierarchical_q(table["p"], labels)
    table["q_beyond_g"], _ = hierarchical_q(table["p_beyond_g"], labels)
    table = with_methods(table, context.get("methods"))
    counted_under = counted_criterion(table, criteria)
    min_n = settings["min_headline_n"]
    table = pd.concat([ranked(part, min_n, counted_under=counted_under) for _, part in table.groupby("criterion")])
    return table[COLUMNS].reset_index(drop=True), pd.DataFrame(excluded, columns=["criterion", "predictor", "rule"])


def with_methods(table: pd.DataFrame, methods: pd.DataFrame | None) -> pd.DataFrame:
    """method_a (the predictor's), method_b (the criterion's) and same_method; missing without a table."""
    if methods is None:
        return table.assign(method_a=pd.NA, method_b=pd.NA, same_method=pd.NA)
    from benchval.atlas.methods import method_columns

    return method_columns(table, methods, "predictor", "criterion")


def counted_criterion(table: pd.DataFrame, criteria: list[str]) -> dict:
    """(criterion, predictor) -> the criterion a pair of two criteria is counted under (the first listed),
    for the rows of such pairs only."""
    order = {c: i for i, c in enumerate(criteria)}
    both = table[table["predictor"].isin(order)]
    return {(c, p): min((c, p), key=order.get) for c, p in zip(both["criterion"], both["predictor"])}


def _note(row, by: str, n_column: str, min_n: int, lead_of, counted_under: dict) -> str:
    """Why a row is not ranked."""
    criterion = row.get("criterion", "")
    elsewhere = counted_under.get((criterion, row["predictor"]), criterion)
    if elsewhere != criterion:
        return f"the pair {elsewhere} ~ {criterion} is counted once, under {elsewhere}"
    if row.get("same_method") == True:  # noqa: E712 (NA is not True)
        return f"same method as the criterion ({row['method_a']}): not cross-method evidence"
    if pd.isna(row[by]):
        return f"{by} undefined: {row['note'] or 'no value'}"
    if row[n_column] < min_n:
        return f"{by} on {int(row[n_column])} models (a headline needs {min_n})"
    return f"sibling of {lead_of[row['group_a']]} (group {row['group_a']}, ranked once)"


def ranked(
    table: pd.DataFrame,
    min_n: int,
    by: str = "rho_beyond_g",
    n_column: str = "n_beyond_g",
    counted_under: dict | None = None,
) -> pd.DataFrame:
    """One criterion's predictors, ranked by ``by`` once per group (module docstring), cross-method rows
    only, each pair of two criteria under one of them; unranked rows last, each with its reason."""
    counted_under = counted_under or {}
    table = table.sort_values([by, "rho"], ascending=False, na_position="last").copy()
    same_method = table["same_method"] == True if "same_method" in table else False  # noqa: E712 (NA stays False)
    criteria = table["criterion"] if "criterion" in table else pd.Series("", index=table.index)
    elsewhere = pd.Series(
        [counted_under.get((c, p), c) != c for c, p in zip(criteria, table["predictor"])], index=table.index
    )
    eligible = table[by].notna() & (table[n_column] >= min_n) & ~same_method & ~elsewhere
    leads = table[eligible].drop_duplicates("group_a")
    table["rank"] = np.nan
    table.loc[leads.index, "rank"] = np.arange(1, len(leads) + 1)
    lead_of = leads.set_index("group_a")["predictor"]
    table["rank_note"] = [
        "" if pd.notna(row["rank"]) else _note(row, by, n_column, min_n, lead_of, counted_under)
        for _, row in table.iterrows()
    ]
    return table.sort_values(["rank", by], ascending=[True, False], na_position="last")
