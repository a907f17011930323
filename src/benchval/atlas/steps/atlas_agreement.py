"""Rule atlas_agreement: agreement beside validity."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.statistics_settings import AgreementSettings
from benchval.atlas.steps.atlas_common import wide_scores, write_table


def write_agreement(atlas: dict, seed: int, ci_level: float, cells_csv, predictors_csv, table_csv) -> None:
    """Rule atlas_agreement: BenchBench-style agreement beside validity (benchval.atlas.agreement)."""
    from benchval.atlas.agreement import agreement_validity

    from benchval.atlas.groups import column_groups

    settings = AgreementSettings.from_config(atlas, seed, ci_level)
    wide, leaderboard = wide_scores(cells_csv)
    criterion, min_n = settings.criterion, settings.min_headline_n
    predictors = pd.read_csv(predictors_csv)
    own = predictors[predictors["criterion"] == criterion]
    benchmarks = own.loc[own["n_models"] >= min_n, "predictor"].tolist()
    too_few = own[own["n_models"] < min_n]
    groups = column_groups(leaderboard, settings.measures.same_measure, settings.measures.collections)
    table = agreement_validity(wide, criterion, benchmarks, settings.resampling, list(settings.reference), groups)
    table["rank_note"] = ""
    left_out = pd.DataFrame(
        {
            "criterion": criterion,
            "benchmark": too_few["predictor"],
            "n_models_validity": too_few["n_models"],
            "moved": False,
            "rank_note": [
                f"validity on {n} models, below atlas.min_headline_n ({min_n}): not ranked" for n in too_few["n_models"]
            ],
        }
    )
    write_table(pd.concat([table, left_out], ignore_index=True), table_csv)
