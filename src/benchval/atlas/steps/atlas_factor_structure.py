"""Rule atlas_factor_structure: scree, loadings and uniqueness of a dense block, and the g method check."""

from __future__ import annotations

from benchval.atlas.statistics_settings import setting
from benchval.atlas.steps.atlas_common import wide_scores, write_table


def write_factor_structure(atlas: dict, dpi: int, cells_csv, outputs: dict, figure_paths: list[str]) -> None:
    """Rule atlas_factor_structure (benchval.atlas.factor_structure, benchval.atlas.general_factor)."""
    from benchval.atlas.factor_structure import dense_block, draw_factor_figure, factor_tables
    from benchval.atlas.general_factor import FactorSettings, complete_case_check

    wide, leaderboard = wide_scores(cells_csv)
    options = atlas["factor_structure"]
    block = dense_block(wide, leaderboard, options["leaderboards"], atlas["aggregate_columns"])
    scree, loadings = factor_tables(block, int(options["n_factors"]))
    scree["n_models_with_any_column"] = int(wide[list(block.columns)].notna().any(axis=1).sum())
    write_table(scree, outputs["scree"])
    write_table(loadings, outputs["loadings"])
    factor = FactorSettings(
        min_models=int(setting(atlas, "min_models")),
        min_columns=int(setting(atlas, "general_factor.min_columns")),
        uniqueness_floor=float(setting(atlas, "general_factor.uniqueness_floor")),
    )
    check = complete_case_check(wide, list(block.columns), factor)
    write_table(check, outputs["g_check"])
    draw_factor_figure(scree, loadings, figure_paths, dpi)
