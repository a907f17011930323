"""Rule atlas_crosscheck: open_llm against ObsScaling's own runs."""

from __future__ import annotations

import pandas as pd

from benchval.analysis.model_names import normalise
from benchval.atlas.steps.atlas_common import wide_scores, write_table


def write_crosscheck(atlas: dict, mirror, cells_csv, names_csv, study: dict, min_models: int, out_csv) -> None:
    """Rule atlas_crosscheck: the open_llm correlations against ObsScaling's own runs (benchval.atlas.crosscheck)."""
    from benchval.atlas.crosscheck import crosscheck
    from benchval.atlas.sources import expand

    wide, _ = wide_scores(cells_csv)
    keys = pd.read_csv(names_csv).drop_duplicates("key").set_index("key")["canonical_id"]
    obs = [pd.read_csv(expand(atlas["obsscaling"][k], mirror)) for k in ("path", "leaderboard_v2")]
    obs = [
        frame.assign(canonical_id=frame["Model"].map(normalise).map(keys)).dropna(subset=["canonical_id"])
        for frame in obs
    ]
    merged = obs[0].set_index("canonical_id").join(obs[1].set_index("canonical_id").drop(columns="Model"), how="outer")
    mapping = atlas["crosscheck"]
    roles = {spec["column"]: spec["role"] for spec in study["tasks"].values()}
    predictors = [c for c in mapping if roles.get(c) in ("cs_original", "control")]
    criteria = [c for c in mapping if roles.get(c) == "downstream"]
    pairs = [(x, y, mapping[x], mapping[y]) for x in predictors for y in criteria]
    write_table(crosscheck(wide, merged, pairs, min_models), out_csv)
