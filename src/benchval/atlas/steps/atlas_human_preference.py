"""Rule atlas_human_preference: every criterion's predictors, ranked beyond size."""

from __future__ import annotations

from benchval.atlas.steps.atlas_factor import factor_settings
from benchval.atlas.steps.atlas_common import (
    column_traits,
    context,
    registry_models,
    settings,
    wide_scores,
    write_table,
)


def write_human_preference(
    atlas: dict, seed: int, ci_level: float, cells_csv, models_csv, methods_csv, table_csv, excluded_csv
):
    """Rule atlas_human_preference: every criterion's predictors, ranked beyond size (benchval.atlas.predictors)."""
    from benchval.atlas.methods import load_methods
    from benchval.atlas.predictors import predictor_table

    wide, leaderboard = wide_scores(cells_csv)
    methods = load_methods(methods_csv, wide.columns)
    table, excluded = predictor_table(
        wide,
        registry_models(models_csv),
        atlas["human_preference"]["criteria"],
        {
            **context(atlas, leaderboard),
            "traits": column_traits(methods_csv, wide),
            "methods": methods,
        },
        {**settings(atlas, seed, ci_level), "factor": factor_settings(atlas)},
    )
    write_table(table, table_csv)
    write_table(excluded, excluded_csv)
