"""Figure 2: commonsense (and control) benchmarks x downstream tasks."""

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

STEM = "fig2_cs_downstream"
TITLE = "Figure 2: do benchmark rankings transfer to downstream tasks?"


def draw(tables: dict[str, pd.DataFrame], study: StudyTable, metrics: list[str], settings, output: FigureOutput):
    """Figure 2 from its table (benchval.analysis.outputs.FIGURE_INPUTS)."""
    return figure_cs_downstream(
        tables["correlations_cs_downstream"], study, metrics, output, settings.fdr_alpha, settings.ci_level
    )


def figure_cs_downstream(
    table: pd.DataFrame, study: StudyTable, metrics: list[str], output: FigureOutput, alpha: float, level: float = 0.95
) -> list[Path]:
    """Figure 2: commonsense (and control) benchmarks x downstream tasks."""
    suffix = {"cs_reworked": " (reworked)", "control": " (control)", "cs_original": ""}

    def row_label(task):  # a study's own role name (studies.<study>.roles) where it declares one
        role, name = study.tasks.at[task, "role"], study.role_name(task)
        return study.figure_label(task) + (f" ({name})" if name != role else suffix[role])

    def panel(ax, metric):
        subset = table[table["metric"] == metric]
        rows = [t for t in study.tasks.index if t in set(subset["benchmark"])]
        columns = [t for t in study.tasks.index if t in set(subset["downstream"])]
        if not rows or not columns:
            empty_panel(ax, metric_label(metric), "no benchmark or no downstream task with this metric")
            return None
        values, stars, capped, bounds = matrix(subset, rows, columns, "benchmark", "downstream", symmetric=False)
        image = heatmap(
            ax,
            values,
            stars,
            [row_label(t) for t in rows],
            [study.figure_label(t) for t in columns],
            f"{metric_label(metric)} ({model_range(subset)})",
            capped,
            bounds,
        )
        ax.set_xlabel("Downstream task")
        return image

    fig = heatmap_figure(
        metrics,
        0.7 * max(4, table["downstream"].nunique()) + 3.5,
        panel,
        f"Figure 2 ({output.study_name}): do benchmark rankings transfer to downstream tasks?",
        f"* Benjamini-Hochberg adjusted p < {alpha} within the comparison family; "
        "grey 'n/a' = undefined (see tables/correlations_cs_downstream.csv)" + interval_note(level) + CEILING_NOTE,
    )
    return output.save(fig, "fig2_cs_downstream")
