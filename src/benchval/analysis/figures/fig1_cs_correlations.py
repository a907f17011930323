"""Figure 1: Spearman matrix of original and reworked commonsense benchmarks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput, empty_panel, metric_label
from benchval.analysis.figures.heatmaps import (
    CEILING_NOTE,
    heatmap,
    heatmap_figure,
    interval_note,
    matrix,
    model_range,
)
from benchval.analysis.study_table import StudyTable

STEM = "fig1_cs_correlations"
TITLE = "Figure 1: rank correlations between commonsense benchmarks"


def rho_range_text(table: pd.DataFrame) -> str:
    """The point of the figure in words: how alike the commonsense benchmarks rank the models."""
    rho = table["rho"].dropna() if "rho" in table else pd.Series(dtype=float)
    if rho.empty:
        return "rank correlations between commonsense benchmarks (none defined)"
    return f"commonsense benchmarks rank the models with Spearman ρ from {rho.min():.2f} to {rho.max():.2f}"


def draw(tables: dict[str, pd.DataFrame], study: StudyTable, metrics: list[str], settings, output: FigureOutput):
    """Figure 1 from its table (benchval.analysis.outputs.FIGURE_INPUTS)."""
    return figure_cs_correlations(
        tables["correlations_cs_cs"], study, metrics, output, settings.fdr_alpha, settings.ci_level
    )


def figure_cs_correlations(
    table: pd.DataFrame, study: StudyTable, metrics: list[str], output: FigureOutput, alpha: float, level: float = 0.95
) -> list[Path]:
    """Figure 1: Spearman matrix of original and reworked commonsense benchmarks."""

    def panel(ax, metric):
        subset = table[table["metric"] == metric]
        tasks = list(dict.fromkeys(list(subset["task_a"]) + list(subset["task_b"])))
        tasks = [t for t in study.tasks.index if t in tasks]
        if not tasks:
            empty_panel(ax, metric_label(metric), "fewer than two commonsense benchmarks with this metric")
            return None
        values, stars, capped, bounds = matrix(subset, tasks, tasks, "task_a", "task_b", symmetric=True)
        labels = [
            f"{study.figure_label(t)}{' (reworked)' if study.tasks.at[t, 'role'] == 'cs_reworked' else ''}"
            for t in tasks
        ]
        title = f"{metric_label(metric)} ({model_range(subset)})"
        return heatmap(ax, values, stars, labels, labels, title, capped, bounds)

    n_tasks = len(set(table["task_a"]) | set(table["task_b"]))
    fig = heatmap_figure(
        metrics,
        max(4.0, 0.85 * n_tasks + 2.5),  # room for each cell's interval and the labels, no more
        panel,
        f"Figure 1 ({output.study_name}): {rho_range_text(table)}",
        f"* Benjamini-Hochberg adjusted p < {alpha}; grey 'n/a' = undefined (see tables/correlations_cs_cs.csv)"
        + interval_note(level)
        + CEILING_NOTE,
        height=max(4.0, 0.6 * n_tasks + 3.0),
    )
    return output.save(fig, "fig1_cs_correlations")
