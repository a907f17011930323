"""Figure 3: change in leave-one-family-out R^2 when CS composites are added to controls."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from benchval.analysis.figures.drawing import FigureOutput, empty_panel, metric_label, plt
from benchval.analysis.study_table import StudyTable

STEM = "fig3_lofo_delta_r2"
TITLE = "Figure 3: gain in leave-one-family-out R² from commonsense composites"
PREDICTOR_SET_LABELS = {
    "controls+original": "+ original CS composite",
    "controls+reworked": "+ reworked CS composite",
    "controls+both": "+ both CS composites",
}


def draw(tables: dict[str, pd.DataFrame], study: StudyTable, metrics: list[str], settings, output: FigureOutput):
    """Figure 3 from its table (benchval.analysis.outputs.FIGURE_INPUTS)."""
    return figure_lofo(tables["lofo_scores"], study, metrics, output, settings.ci_level)


def set_labels(study: StudyTable) -> dict[str, str]:
    """Legend labels of the predictor sets, in the study's own role names where it declares them
    (studies.<study>.roles; the paper's wording otherwise)."""

    def word(role: str, default: str) -> str:
        names = sorted({study.role_name(t) for t in study.tasks_with_role(role)} - {role})
        return "/".join(names) if names else default

    original, reworked = word("cs_original", "original CS"), word("cs_reworked", "reworked CS")
    if original == "original CS" and reworked == "reworked CS":
        return dict(PREDICTOR_SET_LABELS)
    return {
        "controls+original": f"+ {original} composite",
        "controls+reworked": f"+ {reworked} composite",
        "controls+both": f"+ {original} and {reworked} composites",
    }


def baseline_label(table: pd.DataFrame, metric: str, study: StudyTable) -> str:
    """What the baseline ('controls') model held, read from the LOFO table: log size, plus the control
    composite unless the table notes it was omitted or the study has no control task."""
    rows = table[(table["metric"] == metric) & (table["predictor_set"] == "controls")]
    notes = " ".join(rows["note"].dropna().astype(str)) if "note" in rows else ""
    if "control composite omitted" in notes or not study.tasks_with_role("control"):
        return "log size"
    return "log size + control composite"


def number(value: float) -> str:
    return "n/a" if pd.isna(value) else f"{value:.2f}"


def _draw_bars(ax, rows: pd.DataFrame, x: np.ndarray, width: float, color: str, label: str) -> bool:
    """One predictor set's bars with their bootstrap whiskers, "n/a" where undefined; True if any bar is drawn."""
    heights = rows["delta_r2"].to_numpy(float)
    shown = np.isfinite(heights)
    ax.bar(x[shown], heights[shown], width, color=color, label=label)
    if "delta_r2_ci_low" in rows:  # bootstrap interval over models (lofo.bootstrap_delta_r2)
        low, high = rows["delta_r2_ci_low"].to_numpy(float), rows["delta_r2_ci_high"].to_numpy(float)
        bars = shown & np.isfinite(low) & np.isfinite(high)
        ax.errorbar(
            x[bars],
            heights[bars],
            yerr=[heights[bars] - low[bars], high[bars] - heights[bars]],
            fmt="none",
            ecolor="black",
            elinewidth=0.8,
            capsize=2,
        )
    for xi in x[~np.isfinite(heights)]:
        ax.text(xi, 0, "n/a", ha="center", va="bottom", fontsize=6, rotation=90, color="grey")
    return bool(shown.any())


def figure_lofo(
    table: pd.DataFrame, study: StudyTable, metrics: list[str], output: FigureOutput, level: float
) -> list[Path]:
    """Figure 3: change in leave-one-family-out R^2 when CS composites are added to controls."""
    figure_width = max(6.0, 1.1 * table["downstream"].nunique() + 2)
    fig, axes = plt.subplots(len(metrics), 1, figsize=(figure_width, 3.4 * len(metrics)), squeeze=False)
    sets, labels = list(PREDICTOR_SET_LABELS), set_labels(study)
    width = 0.8 / len(sets)
    for ax, metric in zip(axes[:, 0], metrics):
        subset = table[(table["metric"] == metric) & table["predictor_set"].isin(sets)]
        tasks = [t for t in study.tasks.index if t in set(subset["downstream"])]
        if not tasks:
            empty_panel(ax, metric_label(metric), "no downstream task with this metric")
            continue
        drawn = []  # the predictor sets with a bar in this panel: the legend names only these
        for k, name in enumerate(sets):
            rows = subset[subset["predictor_set"] == name].set_index("downstream").reindex(tasks)
            x = np.arange(len(tasks)) + (k - (len(sets) - 1) / 2) * width
            if _draw_bars(ax, rows, x, width, f"C{k}", labels[name]):
                drawn.append((k, name))
        ax.axhline(0, color="black", linewidth=0.8)
        baseline = table[(table["metric"] == metric) & (table["predictor_set"] == "controls")].set_index("downstream")[
            "r2"
        ]
        ax.set_xticks(
            range(len(tasks)),
            [f"{study.figure_label(t)}\n(baseline R² = {number(baseline.get(t, np.nan))})" for t in tasks],
            rotation=30,
            ha="right",
            fontsize=8,
        )
        ax.set_xlim(-0.6, len(tasks) - 0.4)
        ax.set_ylabel(f"Δ out-of-family R²\n(vs {baseline_label(table, metric, study)})")
        ax.set_title(metric_label(metric), fontsize=10)
        if drawn:
            handles = [Patch(color=f"C{k}", label=labels[name]) for k, name in drawn]
            ax.legend(handles=handles, fontsize=7, loc="best")
    fig.suptitle(
        f"Figure 3 ({output.study_name}): gain in leave-one-family-out R² from "
        f"{'commonsense' if labels == PREDICTOR_SET_LABELS else 'benchmark'} composites",
        fontsize=11,
    )
    caption = (
        f"Positive = better prediction of models from unseen families; whiskers: {level:.0%} bootstrap "
        "interval over models (predictions held fixed); 'n/a' = undefined (reason in tables/lofo_scores.csv)"
    )
    # wrapped to the figure's width (about 16 characters per inch at 8 pt): one long line made
    # bbox_inches="tight" widen the figure far beyond its panels
    fig.text(0.01, -0.01, textwrap.fill(caption, int(16 * figure_width)), fontsize=8, va="top")
    fig.tight_layout()
    return output.save(fig, "fig3_lofo_delta_r2")
