"""Rule atlas_human_preference: every criterion's predictors, ranked beyond size."""

from __future__ import annotations

from benchval.atlas.statistics_settings import IncrementalSettings
from benchval.atlas.steps.atlas_common import column_traits, registry_models, wide_scores, write_table


def write_human_preference(
    atlas: dict, seed: int, ci_level: float, cells_csv, models_csv, methods_csv, table_csv, excluded_csv
):
    """Rule atlas_human_preference: every criterion's predictors, ranked beyond size (benchval.atlas.predictors)."""
    from benchval.atlas.methods import load_methods
    from benchval.atlas.predictors import predictor_table

    settings = IncrementalSettings.from_config(atlas, seed, ci_level)
    wide, leaderboard = wide_scores(cells_csv)
    context = {
        "leaderboard": leaderboard,
        "traits": column_traits(methods_csv, wide),
        "methods": load_methods(methods_csv, wide.columns),
    }
    criteria = atlas["human_preference"]["criteria"]
    table, excluded = predictor_table(wide, registry_models(models_csv), criteria, context, settings)
    write_table(table, table_csv)
    write_table(excluded, excluded_csv)
