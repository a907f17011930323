"""The open_llm study against ObsScaling's own Open LLM v2 runs (docs/atlas.md): on the models both
hold, the same Spearman correlations from each source, side by side."""

from __future__ import annotations

import pandas as pd
from scipy import stats


def crosscheck(
    leaderboard: pd.DataFrame, obs: pd.DataFrame, pairs: list[tuple[str, str, str, str]], min_models: int
) -> pd.DataFrame:
    """``pairs``: (leaderboard predictor, leaderboard criterion, ObsScaling predictor, ObsScaling criterion)
    columns; both frames indexed by canonical id."""
    records = []
    for lb_x, lb_y, obs_x, obs_y in pairs:
        shared = leaderboard[[lb_x, lb_y]].dropna().join(obs[[obs_x, obs_y]].dropna(), how="inner")
        record = {"predictor": lb_x, "criterion": lb_y, "obsscaling_predictor": obs_x, "obsscaling_criterion": obs_y}
        record["n_models"] = len(shared)
        if len(shared) >= min_models:
            record["rho_leaderboard"] = stats.spearmanr(shared[lb_x], shared[lb_y]).statistic
            record["rho_obsscaling"] = stats.spearmanr(shared[obs_x], shared[obs_y]).statistic
        else:
            record.update(rho_leaderboard=float("nan"), rho_obsscaling=float("nan"))
        records.append(record)
    return pd.DataFrame.from_records(records)
