"""Rule atlas_agreement: agreement beside validity."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.steps.atlas_common import settings, wide_scores, write_table


def write_agreement(atlas: dict, seed: int, ci_level: float, cells_csv, predictors_csv, table_csv) -> None:
    """Rule atlas_agreement: BenchBench-style agreement beside validity (benchval.atlas.agreement)."""
    from benchval.atlas.agreement import agreement_validity

    from benchval.atlas.groups import column_groups

    wide, leaderboard = wide_scores(cells_csv)
    criterion = atlas["human_preference"]["agreement_criterion"]
    predictors = pd.read_csv(predictors_csv)
    own = predictors[predictors["criterion"] == criterion]
    min_n = int(atlas.get("min_headline_n", atlas["min_models"]))
    benchmarks = own.loc[own["n_models"] >= min_n, "predictor"].tolist()
    too_few = own[own["n_models"] < min_n]
    collections = (atlas.get("measure_groups") or {}).get("collections", [])
    groups = column_groups(leaderboard, atlas["same_measure"], collections)
    reference = atlas.get("agreement_reference") or []
    table = agreement_validity(wide, criterion, benchmarks, settings(atlas, seed, ci_level), reference, groups)
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
