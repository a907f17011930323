"""Which benchmark best predicts a criterion beyond size (the human_preference study; docs/atlas.md).

For each criterion (``atlas.human_preference.criteria``, e.g. Chatbot Arena Elo) every other atlas column
sharing at least ``atlas.min_models`` models with it is a predictor, each on its own shared models
(pairwise: one complete matrix would collapse to a handful of models). Per pair: Spearman rho (scipy) with
its bootstrap CI and n; and the partial Spearman on log size (benchval.analysis.partial.partial_spearman,
Z = [1, log size]) on the shared models whose size the registry knows (open-weights models; closed ones
have none), with its own n. Benjamini-Hochberg runs over all of the study's rho p-values and, separately,
over its partial p-values. A predictor that is the criterion's own leaderboard aggregate or another snapshot
of the same measure (``atlas.same_measure``) is left out and listed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm import tqdm

from benchval.analysis.bootstrap import rng_for
from benchval.analysis.fdr import benjamini_hochberg
from benchval.analysis.partial import partial_spearman
from benchval.analysis.undefined import UndefinedStatistic
from benchval.atlas.pairs import aggregate_pair, rho_with_interval, same_measure

COLUMNS = [
    "criterion",
    "predictor",
    "rank",
    "n_models",
    "rho",
    "ci_low",
    "ci_high",
    "p",
    "p_fdr",
    "n_models_sized",
    "rho_partial_log_size",
    "p_partial",
    "p_partial_fdr",
    "note",
]


def predictor_table(wide: pd.DataFrame, sizes: pd.Series, criteria: list[str], context: dict, settings: dict):
    """(ranked predictors of every criterion, predictors left out with their rule)."""
    records, excluded = [], []
    log_size = np.log(sizes.reindex(wide.index).to_numpy(float))
    for criterion in tqdm(criteria, desc="human preference (bootstrap)", unit="criterion", mininterval=5):
        if criterion not in wide.columns:
            raise KeyError(f"atlas.human_preference.criteria: {criterion!r} is no atlas column")
        y_all = wide[criterion].to_numpy(float)
        for predictor in wide.columns:
            if predictor == criterion:
                continue
            x_all = wide[predictor].to_numpy(float)
            rows = np.isfinite(x_all) & np.isfinite(y_all)
            if rows.sum() < settings["min_models"]:
                continue
            if aggregate_pair(predictor, criterion, context["leaderboard"], context["aggregates"]) or same_measure(
                predictor, criterion, context["same_measure"]
            ):
                excluded.append(
                    {"criterion": criterion, "predictor": predictor, "rule": "same measure or its aggregate"}
                )
                continue
            rng = rng_for(settings["seed"], "human_preference", criterion, predictor)
            values = rho_with_interval(
                x_all[rows], y_all[rows], settings["min_models"], settings["n_bootstrap"], settings["ci_level"], rng
            )
            sized = rows & np.isfinite(log_size)
            record = {"criterion": criterion, "predictor": predictor, **values, "n_models_sized": int(sized.sum())}
            try:
                if sized.sum() < settings["min_models"]:
                    raise UndefinedStatistic(f"only {int(sized.sum())} shared model(s) with a known size")
                r, p, _ = partial_spearman(x_all[sized], y_all[sized], log_size[sized])
                record.update(rho_partial_log_size=r, p_partial=p, note="partial on log size: open models with a size")
            except UndefinedStatistic as undefined:
                record.update(rho_partial_log_size=np.nan, p_partial=np.nan, note=f"partial undefined: {undefined}")
            records.append(record)
    table = pd.DataFrame.from_records(records)
    for p_column in ("p", "p_partial"):
        defined = table[p_column].notna()
        table[f"{p_column}_fdr"] = np.nan
        table.loc[defined, f"{p_column}_fdr"] = benjamini_hochberg(table.loc[defined, p_column].to_numpy())
    table = table.sort_values(
        ["criterion", "rho_partial_log_size", "rho"], ascending=[True, False, False], na_position="last"
    )
    table["rank"] = table.groupby("criterion").cumcount() + 1
    return table[COLUMNS].reset_index(drop=True), pd.DataFrame(excluded, columns=["criterion", "predictor", "rule"])
