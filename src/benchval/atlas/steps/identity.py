"""Rule atlas_identity: the registry against the labelled identity sample, and leaderboard overlap counts."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.steps.common import write_table


def write_identity(atlas: dict, seed: int, ci_level: float, inputs: dict, outputs: dict) -> None:
    """Rule atlas_identity (benchval.atlas.identity_check)."""
    from benchval.atlas.identity_check import identity_scores, leaderboard_overlaps, load_labels

    models = pd.read_csv(inputs["models"]).set_index("canonical_id")
    settings = {
        "size_tolerance": float(atlas["size_tolerance"]),
        "n_bootstrap": int(atlas["n_bootstrap"]),
        "ci_level": ci_level,
        "seed": seed,
    }
    summary, detail = identity_scores(load_labels(inputs["labels"]), pd.read_csv(inputs["names"]), models, settings)
    overlaps = leaderboard_overlaps(pd.read_csv(inputs["cells"]), [tuple(p) for p in atlas["identity"]["overlaps"]])
    write_table(summary, outputs["summary"])
    write_table(detail, outputs["detail"])
    write_table(overlaps, outputs["overlaps"])
