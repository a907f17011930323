"""Figure 4: same-axis minus cross-axis mean Fisher z with bootstrap CIs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput, metric_label, plt
from benchval.analysis.study_table import StudyTable

STEM = "fig4_axis_tests"
TITLE = "Figure 4: same-axis vs cross-axis correlations"
AXIS_LABELS = {
    "social": "Social/emotional",
    "pragmatic": "Pragmatic",
    "event": "Event/physical",
    "all": "All axes: matched vs mismatched",
}


def axis_label(axis: str) -> str:
    """The paper's axes by their long names; a study's own axis by its name."""
    return AXIS_LABELS.get(axis, axis.replace("_", " ").capitalize())


def defined_axes(table: pd.DataFrame, metrics: list[str], panel: str, axis_names: list[str]) -> list[str]:
    """The axes of ``panel`` with an estimate for some metric (all of them where none has one, so that an
    empty panel still shows its n/a rows)."""
    rows = table[(table["panel"] == panel) & table["metric"].isin(metrics) & table["estimate"].notna()]
    defined = [a for a in axis_names if a in set(rows["axis"])]
    return defined or axis_names


def draw(tables: dict[str, pd.DataFrame], study: StudyTable, metrics: list[str], settings, output: FigureOutput):
    """Figure 4 from its table (benchval.analysis.outputs.FIGURE_INPUTS)."""
    return figure_axis_tests(tables["axis_tests"], metrics, output, settings.ci_level)


def _draw_metric(ax, rows: pd.DataFrame, axis_names: list, offset: float, marker: str, color: str) -> None:
    """One metric's estimates and intervals on one panel, a short "n/a" where an axis has none."""
    for i, axis in enumerate(axis_names):
        y = i + offset
        estimate = rows.at[axis, "estimate"] if axis in rows.index else np.nan
        if pd.notna(estimate):
            xerr = [[estimate - rows.at[axis, "ci_low"]], [rows.at[axis, "ci_high"] - estimate]]
            ax.errorbar(estimate, y, xerr=xerr, fmt=marker, color=color, capsize=3)
        else:
            # short and inside the axes: the metric's long label overran the tick labels
            place = {"transform": ax.get_yaxis_transform(), "va": "center", "ha": "center", "clip_on": True}
            ax.text(0.5, y, "n/a", fontsize=7, color=color, **place)


def figure_axis_tests(table: pd.DataFrame, metrics: list[str], output: FigureOutput, level: float) -> list[Path]:
    """Figure 4: same-axis minus cross-axis mean Fisher z with bootstrap CIs."""
    # the study's axes, as the table has them (the paper's social/pragmatic/event by default)
    axes = list(dict.fromkeys(table.loc[table["panel"].isin(["a", "b"]), "axis"].dropna())) or list(AXIS_LABELS)[:3]
    panels = [
        ("a", "(a) Benchmark's same-axis vs other\ndownstream tasks", axes),
        ("b", "(b) Task's same-axis vs other\ncommonsense benchmarks", axes),
        ("global", "(c) Global: axis-matched vs\nmismatched pairs", ["all"]),
    ]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.0), layout="constrained")
    markers = ["o", "s", "^", "D", "v"]
    undefined = []
    for ax, (panel, title, every_axis) in zip(axes, panels):
        axis_names = defined_axes(table, metrics, panel, every_axis)
        undefined += [f"({panel[0]}) {axis_label(a)}" for a in every_axis if a not in axis_names]
        for m, metric in enumerate(metrics):
            rows = table[(table["metric"] == metric) & (table["panel"] == panel)].set_index("axis").reindex(axis_names)
            _draw_metric(ax, rows, axis_names, (m - (len(metrics) - 1) / 2) * 0.18, markers[m % len(markers)], f"C{m}")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(axis_names)), [axis_label(a) for a in axis_names], fontsize=8)
        ax.set_ylim(-0.6, len(axis_names) - 0.4)
        ax.invert_yaxis()
        ax.set_xlabel("Δ mean Fisher z (same-axis − cross-axis)", fontsize=8)
        ax.set_title(title, fontsize=9)
    handles = [
        plt.Line2D(
            [], [], marker=markers[m % len(markers)], color=f"C{m}", linestyle="none", label=metric_label(metric)
        )
        for m, metric in enumerate(metrics)
    ]
    shown = table[table["metric"].isin(metrics)]
    if shown["estimate"].notna().any():
        note = f"not drawn (undefined, reason in tables/axis_tests.csv): {', '.join(undefined)}" if undefined else None
        fig.legend(
            handles=handles,
            loc="outside lower center",
            ncol=len(metrics),
            fontsize=8,
            title=textwrap.fill(note, 150) if note else None,
            title_fontsize=8,
        )
    fig.suptitle(
        f"Figure 4 ({output.study_name}): is criterion validity axis-specific?\n"
        f"points: estimate, bars: {int(level * 100)}% bootstrap CI; > 0 = axis alignment",
        fontsize=10,
    )
    if not shown["estimate"].notna().any():  # nothing to mark: no legend, the reasons instead
        reasons = sorted(shown["note"].dropna().unique()) if "note" in shown else []
        message = "No axis test is defined in this study: " + ("; ".join(reasons) or "no estimate in axis_tests.csv")
        # supxlabel: the constrained layout makes room for it below the axes
        fig.supxlabel(textwrap.fill(message, 150), color="firebrick", fontsize=9)
    return output.save(fig, "fig4_axis_tests")
