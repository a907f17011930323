"""Rule atlas_study_intervals: bootstrap CIs of an atlas study's correlations."""

from __future__ import annotations


from benchval.atlas.steps.atlas_common import write_table


def write_study_intervals(atlas: dict, seed: int, ci_level: float, score_table_csv, tasks_csv, out_csv) -> None:
    """Rule atlas_study_intervals: bootstrap CIs of an atlas study's correlations (benchval.atlas.intervals)."""
    from benchval.atlas.intervals import study_intervals

    table = study_intervals(
        score_table_csv, tasks_csv, int(atlas["min_models"]), int(atlas["n_bootstrap"]), ci_level, seed
    )
    write_table(table, out_csv)
