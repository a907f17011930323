"""Table 4 rendered as a figure: ranking correspondence per CS benchmark, averaged over downstream tasks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput, metric_label, plt
from benchval.analysis.study_table import StudyTable
from benchval.report.safe_text import shorten_label

STEM = "table4_rank_displacement"
TITLE = "Table 4: ranking correspondence per commonsense benchmark"


def draw(tables: dict[str, pd.DataFrame], study: StudyTable, metrics: list[str], settings, output: FigureOutput):
    """Table 4 from its table (benchval.analysis.outputs.FIGURE_INPUTS)."""
    return figure_table4(tables["table4_rank_displacement"], metrics, output, settings.top_k)


def figure_table4(table: pd.DataFrame, metrics: list[str], output: FigureOutput, top_k: int) -> list[Path]:
    """Table 4 rendered as a figure: ranking correspondence per CS benchmark, averaged over downstream tasks."""
    jaccard = f"mean_top{top_k}_jaccard"
    rows, row_colours = [], []
    for metric in metrics:
        subset = table[table["metric"] == metric]
        rows.append([metric_label(metric), "", "", "", ""])
        row_colours.append("#e8e8e8")
        for record in subset.itertuples(index=False):
            values = [
                record.mean_rho,
                record.mean_abs_rank_displacement,
                getattr(record, jaccard),
            ]
            cells = ["n/a" if pd.isna(v) else f"{v:.3f}" if i != 1 else f"{v:.2f}" for i, v in enumerate(values)]
            label = shorten_label(record.label) if isinstance(record.label, str) and record.label else "(none)"
            rows.append([label] + cells + [str(int(record.n_downstream_tasks))])
            row_colours.append("white")
    fig, ax = plt.subplots(figsize=(8.5, 0.26 * len(rows) + 0.6))
    ax.set_axis_off()
    header = ["CS benchmark", "mean ρ", "mean |Δ rank|", f"mean top-{top_k} Jaccard", "downstream tasks"]
    cell_colours = [[colour] * len(header) for colour in row_colours]
    drawn = ax.table(cellText=rows, colLabels=header, cellColours=cell_colours, loc="upper center", cellLoc="center")
    drawn.auto_set_font_size(False)
    drawn.set_fontsize(8)
    drawn.auto_set_column_width(range(len(header)))  # long metric or benchmark labels are not cut off
    drawn.scale(1, 1.25)
    ax.set_title(
        f"Table 4 ({output.study_name}): how well each commonsense benchmark's model ranking matches the "
        "downstream rankings\n(averages over downstream tasks; |Δ rank| = mean absolute rank displacement, "
        "rank 1 = best model)",
        fontsize=9,
    )
    return output.save(fig, "table4_rank_displacement")
