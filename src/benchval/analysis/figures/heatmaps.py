"""The heatmaps of Figures 1 and 2: Spearman rho per task pair with its bootstrap interval below it,
significance stars, the reliability dagger."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import plt


def heatmap(
    ax,
    values: np.ndarray,
    stars: np.ndarray,
    rows: list[str],
    columns: list[str],
    title: str,
    capped=None,
    bounds=None,
):
    """``capped``: cells whose reliability ceiling is below the bar (marked with a dagger); ``bounds``
    (rows x columns x 2): each cell's interval, written under its rho (none where missing)."""
    masked = np.ma.masked_invalid(values)
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="#d9d9d9")
    image = ax.imshow(masked, cmap=cmap, vmin=-1, vmax=1, aspect="auto")
    capped = np.zeros_like(stars) if capped is None else capped
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            marks = ("*" if stars[i, j] else "") + ("†" if capped[i, j] else "")
            text = "n/a" if not np.isfinite(values[i, j]) else f"{values[i, j]:.2f}{marks}"
            colour = "white" if np.isfinite(values[i, j]) and abs(values[i, j]) > 0.6 else "black"
            interval = bounds is not None and np.isfinite(values[i, j]) and np.isfinite(bounds[i, j]).all()
            ax.text(j, i - (0.15 if interval else 0), text, ha="center", va="center", fontsize=7, color=colour)
            if interval:  # smaller, under the rho
                low, high = bounds[i, j]
                ax.text(j, i + 0.2, f"[{low:.2f}, {high:.2f}]", ha="center", va="center", fontsize=6.5, color=colour)
    ax.set_xticks(range(len(columns)), columns, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    ax.set_title(title, fontsize=10)
    return image


def matrix(long: pd.DataFrame, rows: list[str], columns: list[str], a: str, b: str, symmetric: bool):
    """(rho, significance stars, reliability ceiling below the bar, interval bounds) as row x column
    matrices (bounds: rows x columns x 2, NaN where the table has no interval)."""
    values = np.full((len(rows), len(columns)), np.nan)
    bounds = np.full((len(rows), len(columns), 2), np.nan)
    stars = np.zeros_like(values, dtype=bool)
    capped = np.zeros_like(values, dtype=bool)
    row_pos, col_pos = {t: i for i, t in enumerate(rows)}, {t: j for j, t in enumerate(columns)}
    for record in long.itertuples(index=False):
        cells = [(getattr(record, a), getattr(record, b))]
        if symmetric:
            cells.append((getattr(record, b), getattr(record, a)))
        for r, c in cells:
            if r in row_pos and c in col_pos:
                values[row_pos[r], col_pos[c]] = record.rho
                stars[row_pos[r], col_pos[c]] = bool(record.reject) if pd.notna(record.reject) else False
                below = getattr(record, "ceiling_below_bar", None)  # from the FDR step (benchval.analysis.reliability)
                capped[row_pos[r], col_pos[c]] = bool(below) if below is not None and pd.notna(below) else False
                bounds[row_pos[r], col_pos[c]] = [getattr(record, "ci_low", np.nan), getattr(record, "ci_high", np.nan)]
    if symmetric:
        for t in rows:
            if t in col_pos:
                values[row_pos[t], col_pos[t]] = 1.0
    return values, stars, capped, bounds


def interval_note(level: float) -> str:
    """The footnote of the intervals under each rho."""
    return f"; [low, high]: {level:.0%} percentile bootstrap interval over models"


#: footnote of the dagger in Figures 1 and 2
CEILING_NOTE = "; † reliability ceiling below robustness.reliability.ceiling_bar (tables/task_reliability.csv)"


def model_range(table: pd.DataFrame) -> str:
    low, high = int(table["n_models"].min()), int(table["n_models"].max())
    return f"n = {high} models" if low == high else f"n = {low}-{high} models per pair"


def heatmap_figure(
    metrics: list[str], panel_width: float, draw_panel, title: str, footnote: str, height: float = 6.0
) -> plt.Figure:
    """One heatmap panel per metric side by side (``draw_panel(ax, metric)`` returns its image, or
    None for an empty panel), one colour bar for all, ``title`` above and ``footnote`` below, wrapped to
    the figure's width (an unwrapped footnote widened the canvas beyond its panels)."""
    width = panel_width * len(metrics) + 1
    fig, axes = plt.subplots(1, len(metrics), figsize=(width, height), squeeze=False, layout="constrained")
    footnote = textwrap.fill(footnote, max(60, int(width * 13)))  # about 13 characters of 8 pt per inch
    title = textwrap.fill(title, max(50, int(width * 11)))
    images = [draw_panel(ax, metric) for ax, metric in zip(axes[0], metrics)]
    drawn = [image for image in images if image is not None]
    if drawn:
        fig.colorbar(drawn[-1], ax=axes[0].tolist(), shrink=0.8, label="Spearman ρ across models")
    fig.suptitle(title, fontsize=11)
    fig.supxlabel(footnote, fontsize=8)
    return fig
