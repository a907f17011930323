"""The atlas studies' input tables: one row per registry model, the family and size from the registry,
one column per score column the study declares (``studies.<name>.tasks.*.column``), on the models present
in every leaderboard of ``atlas.study_tables.<name>.leaderboards`` (docs/atlas.md). The study then runs
through the analysis chain as an imported csv study."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.leaderboards import LeaderboardError


def study_table(cells: pd.DataFrame, models: pd.DataFrame, study_name: str, study: dict, leaderboards: list[str]):
    """(table, report): the study's wide table and the counts of every step, with the models left out."""
    wanted = {task: spec["column"] for task, spec in study["tasks"].items()}
    absent = {f"studies.{study_name}.tasks.{t}.column": c for t, c in wanted.items() if c not in set(cells["column"])}
    if absent:
        raise LeaderboardError(f"study {study_name!r}: column(s) {absent} are in no used leaderboard file")
    unknown = sorted(set(leaderboards) - set(cells["leaderboard"]))
    if unknown:
        raise LeaderboardError(f"atlas.study_tables.{study_name}.leaderboards: {unknown} is no used leaderboard")
    present = [set(cells.loc[cells["leaderboard"] == name, "canonical_id"]) for name in leaderboards]
    in_all = sorted(set.intersection(*present))
    attributes = models.loc[in_all]
    no_family = attributes.index[attributes["family"].isna()].tolist()
    kept = [m for m in in_all if m not in set(no_family)]
    wide = cells[cells["column"].isin(wanted.values())].pivot(index="canonical_id", columns="column", values="value")
    table = pd.DataFrame(
        {
            "model": kept,
            "family": models.loc[kept, "family"].to_numpy(),
            "size_b": models.loc[kept, "size_b"].to_numpy(),
        }
    ).join(wide.reindex(kept)[list(dict.fromkeys(wanted.values()))].reset_index(drop=True))
    report = pd.DataFrame(
        [
            {"step": f"models in every one of {leaderboards}", "n_models": len(in_all), "left_out": ""},
            {"step": "with a family (registry)", "n_models": len(kept), "left_out": "; ".join(no_family)},
            {
                "step": "of them with a size (registry; the others are left out of partial Spearman and LOFO)",
                "n_models": int(table["size_b"].notna().sum()),
                "left_out": "; ".join(table.loc[table["size_b"].isna(), "model"]),
            },
        ]
    )
    return table, report
