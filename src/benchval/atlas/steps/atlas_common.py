"""What the atlas step modules share: writing a table, the wide score matrix, the registry and the column traits
(their settings: benchval.atlas.statistics_settings)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def write_table(frame: pd.DataFrame, path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False)


def wide_scores(cells_csv) -> tuple[pd.DataFrame, dict]:
    cells = pd.read_csv(cells_csv)
    leaderboard = cells.drop_duplicates("column").set_index("column")["leaderboard"].to_dict()
    return cells.pivot(index="canonical_id", columns="column", values="value"), leaderboard


def registry_models(models_csv) -> pd.DataFrame:
    return pd.read_csv(models_csv).set_index("canonical_id")


def column_traits(methods_csv, wide: pd.DataFrame) -> dict:
    """Column -> trait from the reviewed method table, copies (identical values up to scale) merged
    (benchval.atlas.methods): what a pair's g leaves out beside its groups."""
    from benchval.atlas.methods import identical_copies, load_methods, trait_groups

    methods = load_methods(methods_csv, wide.columns)
    return trait_groups(methods.loc[list(wide.columns)], identical_copies(wide))
