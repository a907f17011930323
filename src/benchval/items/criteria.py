"""The criterion scores an item study correlates with (docs/items.md).

* ``tasks`` (nlu_test_sets): a criterion is another task of the same responses; its score of a model is
  its accuracy (the mean over the task's items, after the study's run rule).
* ``atlas`` (MMLU-Pro): the study's models are joined to the atlas model registry
  (results/atlas/registry/names.csv): a file's model name (``Meta-Llama-3_1-8B``: ``_`` between digits
  read as ``.``) is normalised by the project's one name rule (benchval.analysis.model_names) and joins the
  registry model whose key, canonical id or HF-id name part equals it, when exactly one does; a reviewed
  ``registry_overrides`` entry decides otherwise (listed). A criterion is a leaderboard column of
  results/atlas/cells.csv that ``min_models`` joined models share. The *best supported* criterion is
  the one the most models share; ties go to the order of ``criteria_leaderboards`` then the column name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from benchval.analysis.model_names import parse

_UNDERSCORE_VERSION = re.compile(r"(?<=\d)_(?=\d)")


def name_key(model: str) -> str:
    return parse(_UNDERSCORE_VERSION.sub(".", model)).key


def join_registry(models, names: pd.DataFrame, overrides: dict) -> pd.DataFrame:
    """One row per model: ``canonical_id`` (empty when none or several match), ``rule``, ``candidates``."""
    rows = []
    name_part = names["canonical_id"].str.split("/").str[-1]
    for model in sorted(models):
        key = name_key(model)
        if model in overrides:
            rows.append(
                {"model": model, "canonical_id": overrides[model], "rule": "override (config)", "candidates": ""}
            )
            continue
        hits = (names["key"] == key) | (names["canonical_id"] == key) | (name_part == key)
        candidates = sorted(set(names.loc[hits, "canonical_id"]))
        if len(candidates) == 1:
            rows.append({"model": model, "canonical_id": candidates[0], "rule": f"name key {key!r}", "candidates": ""})
        else:
            rule = "no registry name matches" if not candidates else "several registry models match: not joined"
            rows.append(
                {
                    "model": model,
                    "canonical_id": "",
                    "rule": f"{rule} (key {key!r})",
                    "candidates": ";".join(candidates),
                }
            )
    return pd.DataFrame(rows, columns=["model", "canonical_id", "rule", "candidates"])


def atlas_criteria(joined: pd.DataFrame, cells: pd.DataFrame, settings: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(criterion scores: models x criterion columns, support: one row per candidate criterion)."""
    leaderboards = list(settings["criteria_leaderboards"])
    mapped = joined[joined["canonical_id"] != ""].set_index("canonical_id")["model"]
    rows = cells[
        cells["leaderboard"].isin(leaderboards)
        & cells["canonical_id"].isin(mapped.index)
        & ~cells["column"].isin(settings["exclude_columns"])
    ]
    twice = rows.duplicated(["canonical_id", "column"])
    if twice.any():
        row = rows[twice].iloc[0]
        raise ValueError(f"cells.csv: {row['canonical_id']!r} has two values of {row['column']!r}")
    wide = rows.assign(model=rows["canonical_id"].map(mapped)).pivot(index="model", columns="column", values="value")
    order = {name: i for i, name in enumerate(leaderboards)}
    support = (
        rows.groupby(["leaderboard", "column"])["canonical_id"]
        .nunique()
        .rename("n_models")
        .reset_index()
        .assign(order=lambda t: t["leaderboard"].map(order))
        .sort_values(["n_models", "order", "column"], ascending=[False, True, True])
    )
    support["supported"] = support["n_models"] >= int(settings["min_models"])
    support["best_supported"] = False
    if support["supported"].any():
        support.loc[support.index[0], "best_supported"] = True
    return wide.astype(float), support.drop(columns="order").reset_index(drop=True)


def headline_criterion(study_dir: str, headline: dict) -> str:
    """The headline criterion: the configured one, or ``best_supported`` (criteria_support.csv)."""
    if headline["criterion"] != "best_supported":
        return headline["criterion"]
    support = pd.read_csv(Path(study_dir) / "criteria_support.csv")
    best = support[support["best_supported"].astype(bool)]
    if best.empty:
        raise ValueError(f"{study_dir}/criteria_support.csv: no criterion is shared by min_models models")
    return str(best["column"].iloc[0])
