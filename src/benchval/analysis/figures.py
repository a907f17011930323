"""Figures 1-4 of the paper from the analysis tables (matplotlib, Agg backend).

One panel (heatmaps, Figure 3) or one marker colour (Figure 4) per metric. Missing values are
drawn as grey "n/a" cells or annotated, never silently dropped.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from benchval.analysis.table import StudyTable  # noqa: E402

METRIC_LABELS = {"accuracy": "Accuracy", "macro_f1": "Macro-F1", "score": "Score (each task's headline metric)"}
PREDICTOR_SET_LABELS = {
    "controls+original": "+ original CS composite",
    "controls+reworked": "+ reworked CS composite",
    "controls+both": "+ both CS composites",
}
AXIS_LABELS = {
    "social": "Social/emotional",
    "pragmatic": "Pragmatic",
    "event": "Event/physical",
    "all": "All axes: matched vs mismatched",
}


def _number(value: float) -> str:
    return "n/a" if pd.isna(value) else f"{value:.2f}"


def metric_label(metric: str) -> str:
    return METRIC_LABELS.get(metric, metric.replace("_", " "))


def save(figure: plt.Figure, out_dir: Path, stem: str, formats, dpi: int, notice: str | None = None) -> list[Path]:
    """Write ``stem.<fmt>`` for every format and close the figure; a study's ``notice`` (e.g. that its
    weights are random) is printed above everything else, so that no copy of the figure loses it."""
    if notice:
        figure.text(0.5, 1.0, notice, ha="center", va="bottom", color="firebrick", fontsize=10, fontweight="bold")
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = out_dir / f"{stem}.{fmt}"
        figure.savefig(path, dpi=dpi, bbox_inches="tight", metadata={"Date": None} if fmt == "pdf" else None)
        figure.set_layout_engine("none")  # the layout is settled: later formats reuse it (faster)
        paths.append(path)
    plt.close(figure)
    return paths


@dataclass(frozen=True)
class FigureOutput:
    """Where a study's figures go, in which formats and resolution, and the notice every copy carries."""

    out_dir: Path
    formats: tuple[str, ...] | list[str]
    dpi: int
    study_name: str
    notice: str | None = None

    def save(self, figure: plt.Figure, stem: str) -> list[Path]:
        return save(figure, self.out_dir, stem, self.formats, self.dpi, self.notice)


def _empty_panel(ax: plt.Axes, title: str, reason: str) -> None:
    ax.set_axis_off()
    ax.set_title(title)
    ax.text(0.5, 0.5, f"not available:\n{reason}", ha="center", va="center", wrap=True, fontsize=9)


def _heatmap(ax, values: np.ndarray, stars: np.ndarray, rows: list[str], columns: list[str], title: str, capped=None):
    """``capped``: cells whose reliability ceiling is below the bar (marked with a dagger)."""
    masked = np.ma.masked_invalid(values)
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="#d9d9d9")
    image = ax.imshow(masked, cmap=cmap, vmin=-1, vmax=1, aspect="auto")
    capped = np.zeros_like(stars) if capped is None else capped
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            marks = ("*" if stars[i, j] else "") + ("†" if capped[i, j] else "")
            text = "n/a" if not np.isfinite(values[i, j]) else f"{values[i, j]:.2f}{marks}"
            colour = "white" if np.isfinite(values[i, j]) and abs(values[i, j]) > 0.6 else "black"
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(columns)), columns, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), rows, fontsize=8)
    ax.set_title(title, fontsize=10)
    return image


def _matrix(long: pd.DataFrame, rows: list[str], columns: list[str], a: str, b: str, symmetric: bool):
    """(rho, significance stars, reliability ceiling below the bar) as row x column matrices."""
    values = np.full((len(rows), len(columns)), np.nan)
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
    if symmetric:
        for t in rows:
            if t in col_pos:
                values[row_pos[t], col_pos[t]] = 1.0
    return values, stars, capped


#: footnote of the dagger in Figures 1 and 2
CEILING_NOTE = "; † reliability ceiling below robustness.reliability.ceiling_bar (tables/task_reliability.csv)"


def _model_range(table: pd.DataFrame) -> str:
    low, high = int(table["n_models"].min()), int(table["n_models"].max())
    return f"n = {high} models" if low == high else f"n = {low}-{high} models per pair"


def _heatmap_figure(metrics: list[str], panel_width: float, draw_panel, title: str, footnote: str) -> plt.Figure:
    """One heatmap panel per metric side by side (``draw_panel(ax, metric)`` returns its image, or
    None for an empty panel), one colour bar for all, ``title`` above and ``footnote`` below."""
    fig, axes = plt.subplots(
        1, len(metrics), figsize=(panel_width * len(metrics) + 1, 6.0), squeeze=False, layout="constrained"
    )
    images = [draw_panel(ax, metric) for ax, metric in zip(axes[0], metrics)]
    drawn = [image for image in images if image is not None]
    if drawn:
        fig.colorbar(drawn[-1], ax=axes[0].tolist(), shrink=0.8, label="Spearman ρ across models")
    fig.suptitle(title, fontsize=11)
    fig.supxlabel(footnote, fontsize=8)
    return fig


def figure_cs_correlations(
    table: pd.DataFrame, study: StudyTable, metrics: list[str], output: FigureOutput, alpha: float
) -> list[Path]:
    """Figure 1: Spearman matrix of original and reworked commonsense benchmarks."""

    def panel(ax, metric):
        subset = table[table["metric"] == metric]
        tasks = list(dict.fromkeys(list(subset["task_a"]) + list(subset["task_b"])))
        tasks = [t for t in study.tasks.index if t in tasks]
        if not tasks:
            _empty_panel(ax, metric_label(metric), "fewer than two commonsense benchmarks with this metric")
            return None
        values, stars, capped = _matrix(subset, tasks, tasks, "task_a", "task_b", symmetric=True)
        labels = [
            f"{study.label(t)}{' (reworked)' if study.tasks.at[t, 'role'] == 'cs_reworked' else ''}" for t in tasks
        ]
        title = f"{metric_label(metric)} ({_model_range(subset)})"
        return _heatmap(ax, values, stars, labels, labels, title, capped)

    fig = _heatmap_figure(
        metrics,
        7.0,
        panel,
        f"Figure 1 ({output.study_name}): rank correlations between commonsense benchmarks",
        f"* Benjamini-Hochberg adjusted p < {alpha}; grey 'n/a' = undefined (see tables/correlations_cs_cs.csv)"
        + CEILING_NOTE,
    )
    return output.save(fig, "fig1_cs_correlations")


def figure_cs_downstream(
    table: pd.DataFrame, study: StudyTable, metrics: list[str], output: FigureOutput, alpha: float
) -> list[Path]:
    """Figure 2: commonsense (and control) benchmarks x downstream tasks."""
    suffix = {"cs_reworked": " (reworked)", "control": " (control)", "cs_original": ""}

    def panel(ax, metric):
        subset = table[table["metric"] == metric]
        rows = [t for t in study.tasks.index if t in set(subset["benchmark"])]
        columns = [t for t in study.tasks.index if t in set(subset["downstream"])]
        if not rows or not columns:
            _empty_panel(ax, metric_label(metric), "no benchmark or no downstream task with this metric")
            return None
        values, stars, capped = _matrix(subset, rows, columns, "benchmark", "downstream", symmetric=False)
        image = _heatmap(
            ax,
            values,
            stars,
            [study.label(t) + suffix[study.tasks.at[t, "role"]] for t in rows],
            [study.label(t) for t in columns],
            f"{metric_label(metric)} ({_model_range(subset)})",
            capped,
        )
        ax.set_xlabel("Downstream task")
        return image

    fig = _heatmap_figure(
        metrics,
        0.7 * max(4, table["downstream"].nunique()) + 3.5,
        panel,
        f"Figure 2 ({output.study_name}): do benchmark rankings transfer to downstream tasks?",
        f"* Benjamini-Hochberg adjusted p < {alpha} within the comparison family; "
        "grey 'n/a' = undefined (see tables/correlations_cs_downstream.csv)" + CEILING_NOTE,
    )
    return output.save(fig, "fig2_cs_downstream")


def figure_lofo(
    table: pd.DataFrame, study: StudyTable, metrics: list[str], output: FigureOutput, level: float
) -> list[Path]:
    """Figure 3: change in leave-one-family-out R^2 when CS composites are added to controls."""
    figure_width = max(6.0, 1.1 * table["downstream"].nunique() + 2)
    fig, axes = plt.subplots(len(metrics), 1, figsize=(figure_width, 3.4 * len(metrics)), squeeze=False)
    sets = list(PREDICTOR_SET_LABELS)
    width = 0.8 / len(sets)
    for ax, metric in zip(axes[:, 0], metrics):
        subset = table[(table["metric"] == metric) & table["predictor_set"].isin(sets)]
        tasks = [t for t in study.tasks.index if t in set(subset["downstream"])]
        if not tasks:
            _empty_panel(ax, metric_label(metric), "no downstream task with this metric")
            continue
        for k, name in enumerate(sets):
            rows = subset[subset["predictor_set"] == name].set_index("downstream").reindex(tasks)
            x = np.arange(len(tasks)) + (k - (len(sets) - 1) / 2) * width
            heights = rows["delta_r2"].to_numpy(float)
            shown = np.isfinite(heights)
            ax.bar(x[shown], heights[shown], width, color=f"C{k}", label=PREDICTOR_SET_LABELS[name])
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
        ax.axhline(0, color="black", linewidth=0.8)
        baseline = table[(table["metric"] == metric) & (table["predictor_set"] == "controls")].set_index("downstream")[
            "r2"
        ]
        ax.set_xticks(
            range(len(tasks)),
            [f"{study.label(t)}\n(controls R² = {_number(baseline.get(t, np.nan))})" for t in tasks],
            rotation=30,
            ha="right",
            fontsize=8,
        )
        ax.set_xlim(-0.6, len(tasks) - 0.4)
        ax.set_ylabel("Δ out-of-family R²\n(vs log size + control)")
        ax.set_title(metric_label(metric), fontsize=10)
        handles = [Patch(color=f"C{k}", label=PREDICTOR_SET_LABELS[name]) for k, name in enumerate(sets)]
        ax.legend(handles=handles, fontsize=7, loc="best")
    fig.suptitle(
        f"Figure 3 ({output.study_name}): gain in leave-one-family-out R² from commonsense composites", fontsize=11
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


def figure_axis_tests(table: pd.DataFrame, metrics: list[str], output: FigureOutput, level: float) -> list[Path]:
    """Figure 4: same-axis minus cross-axis mean Fisher z with bootstrap CIs."""
    panels = [
        ("a", "(a) Benchmark's same-axis vs other\ndownstream tasks", ["social", "pragmatic", "event"]),
        ("b", "(b) Task's same-axis vs other\ncommonsense benchmarks", ["social", "pragmatic", "event"]),
        ("global", "(c) Global: axis-matched vs\nmismatched pairs", ["all"]),
    ]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.0), layout="constrained")
    markers = ["o", "s", "^", "D", "v"]
    for ax, (panel, title, axis_names) in zip(axes, panels):
        for m, metric in enumerate(metrics):
            rows = table[(table["metric"] == metric) & (table["panel"] == panel)].set_index("axis").reindex(axis_names)
            offset = (m - (len(metrics) - 1) / 2) * 0.18
            for i, axis in enumerate(axis_names):
                y = i + offset
                estimate = rows.at[axis, "estimate"] if axis in rows.index else np.nan
                if pd.notna(estimate):
                    ax.errorbar(
                        estimate,
                        y,
                        xerr=[[estimate - rows.at[axis, "ci_low"]], [rows.at[axis, "ci_high"] - estimate]],
                        fmt=markers[m % len(markers)],
                        color=f"C{m}",
                        capsize=3,
                    )
                else:
                    # short and inside the axes: the metric's long label overran the tick labels
                    ax.text(
                        0.5,
                        y,
                        "n/a",
                        transform=ax.get_yaxis_transform(),
                        fontsize=7,
                        color=f"C{m}",
                        va="center",
                        ha="center",
                        clip_on=True,
                    )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(axis_names)), [AXIS_LABELS[a] for a in axis_names], fontsize=8)
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
        fig.legend(handles=handles, loc="outside lower center", ncol=len(metrics), fontsize=8)
    fig.suptitle(
        f"Figure 4 ({output.study_name}): is criterion validity axis-specific? "
        f"(points: estimate, bars: {int(level * 100)}% bootstrap CI; > 0 = axis alignment; "
        "n/a: undefined, reason in tables/axis_tests.csv)",
        fontsize=10,
    )
    if not shown["estimate"].notna().any():  # nothing to mark: no legend, the reasons instead
        reasons = sorted(shown["note"].dropna().unique()) if "note" in shown else []
        message = "No axis test is defined in this study: " + ("; ".join(reasons) or "no estimate in axis_tests.csv")
        # supxlabel: the constrained layout makes room for it below the axes
        fig.supxlabel(textwrap.fill(message, 150), color="firebrick", fontsize=9)
    return output.save(fig, "fig4_axis_tests")


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
            label = record.label if isinstance(record.label, str) and record.label else "(none)"
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


#: figures drawn from correlations across models: below min_models they say so instead of a grid of n/a
NEEDS_MIN_MODELS = (
    "fig1_cs_correlations",
    "fig2_cs_downstream",
    "fig3_lofo_delta_r2",
    "fig4_axis_tests",
    "table4_rank_displacement",
)
_FIGURE_TITLES = {
    "fig1_cs_correlations": "Figure 1: rank correlations between commonsense benchmarks",
    "fig2_cs_downstream": "Figure 2: do benchmark rankings transfer to downstream tasks?",
    "fig3_lofo_delta_r2": "Figure 3: gain in leave-one-family-out R² from commonsense composites",
    "fig4_axis_tests": "Figure 4: same-axis vs cross-axis correlations",
    "table4_rank_displacement": "Table 4: ranking correspondence per commonsense benchmark",
}


def figure_too_few_models(stem: str, n_models: int, min_models: int, output: FigureOutput) -> list[Path]:
    """A one-line figure: the study has too few models for this correlation figure."""
    fig = plt.figure(figsize=(7.0, 1.2))
    fig.text(0.5, 0.62, f"{_FIGURE_TITLES[stem]} ({output.study_name})", ha="center", va="center", fontsize=10)
    fig.text(
        0.5,
        0.28,
        f"Not drawn: the study has {n_models} model{'s' if n_models != 1 else ''}; statistics across "
        f"models need at least {min_models} (analysis.min_models).",
        ha="center",
        va="center",
        fontsize=9,
    )
    return output.save(fig, stem)


def draw(
    stem: str,
    tables: dict[str, pd.DataFrame],
    study: StudyTable,
    metrics: list[str],
    settings,
    out_dir: Path,
    study_name: str,
    notice: str | None = None,
) -> list[Path]:
    """Draw figure ``stem`` (benchval.analysis.outputs.FIGURE_STEMS) from its tables."""
    output = FigureOutput(out_dir, settings.figure_formats, settings.figure_dpi, study_name, notice)
    if stem in NEEDS_MIN_MODELS and len(study.models) < settings.min_models:
        return figure_too_few_models(stem, len(study.models), settings.min_models, output)
    if stem == "fig1_cs_correlations":
        return figure_cs_correlations(tables["correlations_cs_cs"], study, metrics, output, settings.fdr_alpha)
    if stem == "fig2_cs_downstream":
        return figure_cs_downstream(tables["correlations_cs_downstream"], study, metrics, output, settings.fdr_alpha)
    if stem == "fig3_lofo_delta_r2":
        return figure_lofo(tables["lofo_scores"], study, metrics, output, settings.ci_level)
    if stem == "fig4_axis_tests":
        return figure_axis_tests(tables["axis_tests"], metrics, output, settings.ci_level)
    if stem == "table4_rank_displacement":
        return figure_table4(tables["table4_rank_displacement"], metrics, output, settings.top_k)
    raise ValueError(f"unknown figure {stem!r}")


def run_figure_step(
    stem: str,
    score_table_csv,
    tasks_csv,
    table_csvs: dict[str, str],
    section: dict | None,
    out_dir,
    study_name: str,
    notice: str | None = None,
) -> list[Path]:
    """The chain's step for figure ``stem``: read the study and the figure's tables, draw it."""
    from benchval.analysis.chain import read_tables, step_settings, study_metrics
    from benchval.analysis.outputs import FIGURE_SETTINGS
    from benchval.analysis.table import load_study

    settings = step_settings(section, FIGURE_SETTINGS[stem], stem)
    study = load_study(score_table_csv, tasks_csv)
    metrics = study_metrics(study, settings, score_table_csv)
    return draw(stem, read_tables(table_csvs), study, metrics, settings, Path(out_dir) / "figures", study_name, notice)
