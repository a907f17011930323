"""The scoreboard figure: one panel per metric, every task on the x axis, one marker per model
with its item-bootstrap CI, and the task's chance level as a dashed grey segment."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput, metric_label, plt
from benchval.report.safe_text import shorten_label

MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">"]


def _panel(ax, rows: pd.DataFrame, models: list[str], tasks: list[str], labels: dict[str, str]) -> None:
    width = min(0.8 / max(len(models), 1), 0.25)
    for t, task in enumerate(tasks):
        chance = rows.loc[rows["task"] == task, "chance"].dropna()
        if len(chance):
            ax.hlines(chance.iloc[0], t - 0.45, t + 0.45, colors="grey", linestyles="--", linewidth=1.2, zorder=1)
        if rows.loc[rows["task"] == task, "value"].isna().all():
            ax.text(t, 0.5, "n/a", ha="center", va="center", fontsize=7, color="grey", rotation=90)
    for m, model in enumerate(models):
        own = rows[rows["model"] == model].set_index("task").reindex(tasks)
        x = np.arange(len(tasks)) + (m - (len(models) - 1) / 2) * width
        value = own["value"].to_numpy(float)
        shown = np.isfinite(value)
        errors = np.vstack([value - own["ci_low"].to_numpy(float), own["ci_high"].to_numpy(float) - value])
        ax.errorbar(
            x[shown],
            value[shown],
            yerr=np.nan_to_num(errors[:, shown]),
            fmt=MARKERS[m % len(MARKERS)],
            color=f"C{m}",
            markersize=4,
            capsize=2,
            linewidth=1,
            label=shorten_label(model),
            zorder=2,
        )
    ax.set_xticks(
        range(len(tasks)), [shorten_label(labels.get(t, t)) for t in tasks], rotation=40, ha="right", fontsize=7
    )
    ax.set_xlim(-0.6, len(tasks) - 0.4)
    ax.set_ylim(-0.03, 1.03)
    ax.grid(axis="y", alpha=0.3)


def figure_scoreboard(table: pd.DataFrame, output: FigureOutput, level: float) -> list[Path]:
    """Write ``scoreboard.<fmt>`` from :func:`benchval.analysis.scoreboard.scoreboard_table`."""
    metrics = list(dict.fromkeys(table["metric"])) or ["accuracy"]
    models = list(dict.fromkeys(table["model"]))
    labels = dict(zip(table["task"], table["label"]))
    n_tasks = max(table["task"].nunique(), 1)
    fig, axes = plt.subplots(
        len(metrics),
        1,
        figsize=(max(6.0, 0.45 * n_tasks + 2.5), 3.3 * len(metrics)),
        squeeze=False,
        layout="constrained",
    )
    for ax, metric in zip(axes[:, 0], metrics):
        rows = table[table["metric"] == metric]
        tasks = list(dict.fromkeys(rows["task"]))
        if not tasks:
            ax.set_axis_off()
            ax.text(0.5, 0.5, "no scores", ha="center", va="center")
            continue
        _panel(ax, rows, models, tasks, labels)
        ax.set_ylabel(metric_label(metric))
    handles, names = axes[0, 0].get_legend_handles_labels()
    handles.append(plt.Line2D([], [], color="grey", linestyle="--"))
    names.append("chance (uniform guessing)")
    fig.legend(handles, names, loc="outside lower center", ncol=len(names), fontsize=8)
    fig.suptitle(
        f"Scoreboard ({output.study_name}): score per model and task, {int(round(level * 100))}% item-bootstrap "
        "CI; dashed = chance",
        fontsize=10,
    )
    return output.save(fig, "scoreboard")
