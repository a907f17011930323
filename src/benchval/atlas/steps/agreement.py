"""Rule atlas_agreement: agreement beside validity."""

from __future__ import annotations

import pandas as pd

from benchval.atlas.steps.common import settings, wide_scores, write_table


def write_agreement(atlas: dict, seed: int, ci_level: float, cells_csv, predictors_csv, table_csv) -> None:
    """Rule atlas_agreement: BenchBench-style agreement beside validity (benchval.atlas.agreement)."""
    from benchval.atlas.agreement import agreement_validity

    wide, _ = wide_scores(cells_csv)
    criterion = atlas["human_preference"]["agreement_criterion"]
    predictors = pd.read_csv(predictors_csv)
    benchmarks = predictors.loc[predictors["criterion"] == criterion, "predictor"].tolist()
    options = {**settings(atlas, seed, ci_level), "max_rank_shift": int(atlas["max_rank_shift"])}
    write_table(agreement_validity(wide, criterion, benchmarks, options), table_csv)
