"""Rule atlas_pairs: the atlas proper."""

from __future__ import annotations

import logging
import numpy as np
import pandas as pd

from benchval.atlas.steps.common import wide_scores, write_table

log = logging.getLogger(__name__)


def write_pairs(atlas: dict, seed: int, ci_level: float, cells_csv, pairs_csv, excluded_csv) -> None:
    """Rule atlas_pairs: the atlas proper (benchval.atlas.pairs)."""
    from benchval.atlas.pairs import atlas_pairs
    from benchval.atlas.pairs import same_measure

    wide, leaderboard = wide_scores(cells_csv)
    pairs, excluded = atlas_pairs(
        wide,
        leaderboard,
        atlas["aggregate_columns"],
        int(atlas["min_models"]),
        int(atlas["n_bootstrap"]),
        ci_level,
        seed,
    )
    snapshot = [same_measure(a, b, atlas["same_measure"]) for a, b in zip(pairs["column_a"], pairs["column_b"])]
    moved = pairs[snapshot].assign(rule="another snapshot of the same measure (atlas.same_measure)")
    excluded = pd.concat([excluded, moved[["column_a", "column_b", "n_models", "rule"]]], ignore_index=True)
    pairs = pairs[~np.asarray(snapshot, bool)].reset_index(drop=True)
    from benchval.analysis.fdr import benjamini_hochberg

    defined = pairs["p"].notna()
    pairs.loc[defined, "p_fdr"] = benjamini_hochberg(pairs.loc[defined, "p"].to_numpy())  # FDR over the kept pairs
    write_table(pairs, pairs_csv)
    write_table(excluded, excluded_csv)
    log.info("atlas: %d pairs (%d excluded by rule)", len(pairs), len(excluded))
