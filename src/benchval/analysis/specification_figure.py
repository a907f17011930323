"""The specification-curve figure of a study (``figures/specification_curve``) from its
specification-robustness table (benchval.analysis.specification).

One column of two panels per conclusion kind: above, every conclusion's share of specifications that
agree with the main one, conclusions sorted by that share (a specification curve of agreement); below,
for each choice dimension, a dot where changing that choice alone flips the conclusion. The
``specification-curve`` package (PyPI) draws regression coefficients over control sets and was not
used: these conclusions are not regression coefficients.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput, metric_label
from benchval.analysis.specification import DIMENSIONS

STEM = "specification_curve"
KIND_LABELS = {
    "cs_downstream_spearman": "CS x downstream Spearman",
    "partial_spearman": "Partial Spearman",
    "revision_group": "Revision groups (OO - RR / OR)",
    "delta_rho": "Delta-rho (Eq. 2)",
    "lofo_gain": "LOFO R^2 gain",
    "above_chance": "Model above chance",
    "model_order": "Order of models",
}
#: main conclusions drawn filled (a positive finding) rather than hollow
POSITIVE_WORDS = (", significant", "excludes 0", "above chance")
MAX_TICK_LABELS = 30
MAX_PANEL_INCHES = 6.0
MAX_ROW_INCHES = 18.0
ROW_INCHES = 4.6


def _pack(kinds: list[str], widths: dict[str, float]) -> list[list[str]]:
    """The kinds in rows, in order, each row at most MAX_ROW_INCHES wide (a wider panel alone)."""
    rows: list[list[str]] = [[]]
    for kind in kinds:
        if rows[-1] and sum(widths[k] for k in rows[-1]) + widths[kind] > MAX_ROW_INCHES:
            rows.append([])
        rows[-1].append(kind)
    return rows


def _is_finding(label: str) -> bool:
    return any(word in label and "not above" not in label for word in POSITIVE_WORDS)


def _curve(ax, part: pd.DataFrame, metrics: list[str]) -> None:
    markers = dict(zip(metrics, "os^Dv"))
    x = np.arange(len(part))
    for metric in metrics:
        rows = (part["metric"] == metric).to_numpy()
        finding = np.array([_is_finding(label) for label in part["main"]]) & rows
        other = rows & ~finding
        ax.scatter(
            x[finding],
            part["share_agree"][finding],
            marker=markers[metric],
            color="tab:blue",
            s=22,
            label=f"{metric_label(metric)}: main finds an effect",
        )
        ax.scatter(
            x[other],
            part["share_agree"][other],
            marker=markers[metric],
            facecolors="none",
            edgecolors="tab:gray",
            s=22,
            label=f"{metric_label(metric)}: main finds none",
        )
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlim(-0.5, len(part) - 0.5)  # aligned with the panel of flipping choices below
    ax.axhline(1.0, color="black", lw=0.5, ls=":")
    ax.set_ylabel("share of specifications\nagreeing with the main")
    ax.set_xticks([])


def _flips(ax, part: pd.DataFrame) -> None:
    for row, dimension in enumerate(DIMENSIONS):
        flipped = [dimension in str(f).split(", ") for f in part["flipped_by"].fillna("")]
        ax.scatter(np.flatnonzero(flipped), np.full(sum(flipped), row), color="firebrick", s=14, marker="s")
    ax.set_yticks(range(len(DIMENSIONS)), DIMENSIONS, fontsize=8)
    ax.set_ylim(len(DIMENSIONS) - 0.5, -0.5)
    ax.set_xlim(-0.5, len(part) - 0.5)
    if len(part) <= MAX_TICK_LABELS:
        ax.set_xticks(
            range(len(part)), [f"{s} ({m})" for s, m in zip(part["subject"], part["metric"])], rotation=90, fontsize=7
        )
    else:
        ax.set_xticks([])
        ax.set_xlabel(f"{len(part)} conclusions (names in specification_robustness.csv)", fontsize=8)


def figure_specification_curve(table: pd.DataFrame, output: FigureOutput):
    """Draw the figure (or one line saying why there is nothing to draw) and save it."""
    defined = table[table["main"].fillna("") != ""]
    kinds = [k for k in KIND_LABELS if (defined["kind"] == k).any()]
    if not kinds:
        figure, ax = plt.subplots(figsize=(7, 1.2))
        ax.set_axis_off()
        reasons = sorted(set(table["note"].dropna()))
        ax.text(
            0.5,
            0.5,
            f"{output.study_name}: no conclusion to test for robustness\n" + "\n".join(reasons[:3]),
            ha="center",
            va="center",
            fontsize=9,
            wrap=True,
        )
        return output.save(figure, STEM)
    metrics = list(dict.fromkeys(defined["metric"]))
    # a panel per kind, at most MAX_PANEL_INCHES wide (past MAX_TICK_LABELS conclusions it has no labels to
    # space out), packed into rows of at most MAX_ROW_INCHES: the figure is read whole at its saved size
    widths = {k: max(2.5, min(MAX_PANEL_INCHES, 0.16 * (defined["kind"] == k).sum())) for k in kinds}
    rows = _pack(kinds, widths)
    figure = plt.figure(
        figsize=(max(sum(widths[k] for k in row) for row in rows) + 1.5, ROW_INCHES * len(rows) + 1.0),
        layout="constrained",
    )
    first_axes = None
    for subfigure, row in zip(np.atleast_1d(figure.subfigures(len(rows), 1)), rows):
        axes = subfigure.subplots(
            2,
            len(row),
            squeeze=False,
            gridspec_kw={"width_ratios": [widths[k] for k in row], "height_ratios": [2, 1.3]},
        )
        first_axes = axes[0, 0] if first_axes is None else first_axes
        for column, kind in enumerate(row):
            part = (
                defined[defined["kind"] == kind]
                .sort_values(["share_agree", "metric", "subject"])
                .reset_index(drop=True)
            )
            _curve(axes[0, column], part, metrics)
            axes[0, column].set_title(KIND_LABELS[kind], fontsize=10)
            _flips(axes[1, column], part)
            if column:
                axes[0, column].set_ylabel("")
                axes[1, column].set_yticklabels([])
    handles, labels = first_axes.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    figure.legend(unique.values(), unique.keys(), loc="outside lower center", ncol=min(4, len(unique)), fontsize=8)
    figure.suptitle(
        f"{output.study_name}: robustness of each conclusion over the specification grid "
        "(below: choices that flip it alone)",
        fontsize=10,
    )
    return output.save(figure, STEM)
