"""Names of the files the analysis writes (imported by workflow/rules/analysis.smk).

Every table holds all metrics, distinguished by a ``metric`` column; every figure shows one
panel (or one colour) per metric. So the set of output files does not depend on the data.
"""

from __future__ import annotations

from pathlib import Path

FIGURE_STEMS = (
    "fig1_cs_correlations",
    "fig2_cs_downstream",
    "fig3_lofo_delta_r2",
    "fig4_axis_tests",
    "table4_rank_displacement",
)

TABLE_NAMES = (
    "study_summary",
    "correlations_cs_cs",
    "correlations_cs_downstream",
    "revision_pairs",
    "revision_groups",
    "delta_rho",
    "revision_sensitivity",
    "partial_spearman",
    "axis_tests",
    "lofo_scores",
    "lofo_predictions",
    "rank_displacement_pairs",
    "table4_rank_displacement",
    "fdr",
)

FIGURE_FORMATS = ("png", "pdf")


def figure_paths(out_dir: str | Path, formats=FIGURE_FORMATS) -> list[Path]:
    """``out_dir/figures/<stem>.<fmt>`` for every figure and format."""
    return [Path(out_dir) / "figures" / f"{stem}.{fmt}" for stem in FIGURE_STEMS for fmt in formats]


def table_paths(out_dir: str | Path) -> list[Path]:
    """``out_dir/tables/<name>.csv`` for every table."""
    return [Path(out_dir) / "tables" / f"{name}.csv" for name in TABLE_NAMES]
