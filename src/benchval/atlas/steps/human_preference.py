"""Rule atlas_human_preference: every criterion's predictors, ranked beyond size."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.steps.common import context, settings, wide_scores, write_table


def write_human_preference(atlas: dict, seed: int, ci_level: float, cells_csv, models_csv, table_csv, excluded_csv):
    """Rule atlas_human_preference: every criterion's predictors, ranked beyond size (benchval.atlas.predictors)."""
    from benchval.atlas.predictors import predictor_table

    wide, leaderboard = wide_scores(cells_csv)
    sizes = pd.read_csv(models_csv).set_index("canonical_id")["size_b"]
    table, excluded = predictor_table(
        wide,
        sizes,
        atlas["human_preference"]["criteria"],
        context(atlas, leaderboard),
        settings(atlas, seed, ci_level),
    )
    write_table(table, table_csv)
    write_table(excluded, excluded_csv)
