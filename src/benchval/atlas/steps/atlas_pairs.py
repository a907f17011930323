"""Rule atlas_pairs: the atlas proper."""

from __future__ import annotations

import logging

from benchval.atlas.statistics_settings import IncrementalSettings
from benchval.atlas.steps.atlas_common import column_traits, registry_models, wide_scores, write_table

log = logging.getLogger(__name__)


def write_pairs(
    atlas: dict, seed: int, ci_level: float, cells_csv, models_csv, methods_csv, pairs_csv, excluded_csv
) -> None:
    """Rule atlas_pairs: the atlas proper (benchval.atlas.pairs)."""
    from benchval.atlas.pairs import atlas_pairs

    settings = IncrementalSettings.from_config(atlas, seed, ci_level)
    wide, leaderboard = wide_scores(cells_csv)
    models, traits = registry_models(models_csv), column_traits(methods_csv, wide)
    pairs, excluded = atlas_pairs(wide, leaderboard, settings, models=models, traits=traits)
    write_table(pairs, pairs_csv)
    write_table(excluded, excluded_csv)
    log.info("atlas: %d pairs (%d excluded by rule)", len(pairs), len(excluded))
