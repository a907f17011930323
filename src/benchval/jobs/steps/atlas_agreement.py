"""Rule atlas_agreement: agreement beside validity."""

from __future__ import annotations

import pandas as pd

from benchval.jobs.steps.shared.atlas_common import settings, wide_scores, write_table


def write_agreement(atlas: dict, seed: int, ci_level: float, cells_csv, predictors_csv, table_csv) -> None:
    """Rule atlas_agreement: BenchBench-style agreement beside validity (benchval.atlas.agreement)."""
    from benchval.atlas.agreement import agreement_validity

    from benchval.atlas.groups import column_groups

    wide, leaderboard = wide_scores(cells_csv)
    criterion = atlas["human_preference"]["agreement_criterion"]
    predictors = pd.read_csv(predictors_csv)
    benchmarks = predictors.loc[predictors["criterion"] == criterion, "predictor"].tolist()
    collections = (atlas.get("measure_groups") or {}).get("collections", [])
    groups = column_groups(leaderboard, atlas["same_measure"], collections)
    reference = atlas.get("agreement_reference") or []
    table = agreement_validity(wide, criterion, benchmarks, settings(atlas, seed, ci_level), reference, groups)
    write_table(table, table_csv)
