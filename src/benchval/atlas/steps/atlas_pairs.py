"""Rule atlas_pairs: the atlas proper."""

from __future__ import annotations

import logging

from benchval.atlas.steps.atlas_factor import factor_settings
from benchval.atlas.steps.atlas_common import column_traits, context, registry_models, wide_scores, write_table

log = logging.getLogger(__name__)


def write_pairs(
    atlas: dict, seed: int, ci_level: float, cells_csv, models_csv, methods_csv, pairs_csv, excluded_csv
) -> None:
    """Rule atlas_pairs: the atlas proper (benchval.atlas.pairs)."""
    from benchval.atlas.pairs import atlas_pairs

    wide, leaderboard = wide_scores(cells_csv)
    pairs, excluded = atlas_pairs(
        wide,
        leaderboard,
        atlas["aggregate_columns"],
        int(atlas["min_models"]),
        int(atlas["n_bootstrap"]),
        ci_level,
        seed,
        same=atlas["same_measure"],
        models=registry_models(models_csv),
        collections=context(atlas, leaderboard)["collections"],
        factor=factor_settings(atlas),
        min_clusters=int(atlas.get("min_clusters", 3)),
        min_interval_n=int(atlas.get("min_headline_n", atlas["min_models"])),
        traits=column_traits(methods_csv, wide),
    )
    write_table(pairs, pairs_csv)
    write_table(excluded, excluded_csv)
    log.info("atlas: %d pairs (%d excluded by rule)", len(pairs), len(excluded))
