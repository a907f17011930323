"""One figure as a step of the analysis chain (workflow/rules/analysis.smk): read the study and the
figure's tables, draw the figure with its module's ``draw``, or, for a study with too few models, a
one-line notice that says so.

The figure module is an argument, imported by the figure's own script, never looked up here: this
module imports no figure, so that editing one figure reruns only its rule (benchval.jobs.reruns).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput, plt
from benchval.analysis.study_table import StudyTable


def figure_too_few_models(stem: str, title: str, n_models: int, min_models: int, output: FigureOutput) -> list[Path]:
    """A one-line figure: the study has too few models for this figure (every figure is drawn from
    statistics across models: below min_models it says so instead of a grid of n/a)."""
    fig = plt.figure(figsize=(7.0, 1.2))
    fig.text(0.5, 0.62, f"{title} ({output.study_name})", ha="center", va="center", fontsize=10)
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
    figure: ModuleType,
    tables: dict[str, pd.DataFrame],
    study: StudyTable,
    metrics: list[str],
    settings,
    out_dir: Path,
    study_name: str,
    notice: str | None = None,
) -> list[Path]:
    """Draw ``figure`` (a module of this package) from its tables into ``out_dir``."""
    output = FigureOutput(out_dir, settings.figure_formats, settings.figure_dpi, study_name, notice)
    if len(study.models) < settings.min_models:
        return figure_too_few_models(figure.STEM, figure.TITLE, len(study.models), settings.min_models, output)
    return figure.draw(tables, study, metrics, settings, output)


def run_figure_step(
    figure: ModuleType,
    score_table_csv,
    tasks_csv,
    table_csvs: dict[str, str],
    section: dict | None,
    out_dir,
    study_name: str,
    notice: str | None = None,
) -> list[Path]:
    """The chain's step for ``figure``: read the study and the figure's tables, draw it."""
    from benchval.analysis.chain import read_tables, step_settings, study_metrics
    from benchval.analysis.outputs import FIGURE_SETTINGS
    from benchval.analysis.study_table import load_study

    settings = step_settings(section, FIGURE_SETTINGS[figure.STEM], figure.STEM)
    study = load_study(score_table_csv, tasks_csv)
    metrics = study_metrics(study, settings, score_table_csv)
    return draw(
        figure, read_tables(table_csvs), study, metrics, settings, Path(out_dir) / "figures", study_name, notice
    )


def run_figure_job(figure: ModuleType, inputs: dict[str, str], params: dict, study_name: str) -> list[Path]:
    """A figure rule's job (workflow/scripts/analysis_figure_<stem>.py): its named inputs (``table``,
    ``tasks`` and the figure's tables) and params (``analysis``, ``out_dir``, ``notice``) as plain values."""
    tables = {name: path for name, path in inputs.items() if name not in ("table", "tasks")}
    return run_figure_step(
        figure,
        inputs["table"],
        inputs["tasks"],
        tables,
        params["analysis"],
        params["out_dir"],
        study_name,
        params["notice"],
    )
