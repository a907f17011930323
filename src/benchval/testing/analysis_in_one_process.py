"""The analysis of one study in one process, for tests and benchmarks/bench_analysis.py.

The workflow runs the same steps as separate rules (workflow/rules/analysis.smk):
:func:`benchval.analysis.chain.run_step` (statistics), :func:`benchval.analysis.fdr.run_fdr_step` and
:func:`benchval.analysis.figures.figure_step.run_figure_step`; :func:`run_analysis` writes the same tables
and figures (tests/analysis/test_analysis_chain.py compares them).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from benchval.analysis import axes, displacement, fdr, lofo, pairwise, partial, revisions
from benchval.analysis.figures import (
    fig1_cs_correlations,
    fig2_cs_downstream,
    fig3_lofo_delta_r2,
    fig4_axis_tests,
    figure_step,
    table4_rank_displacement,
)
from benchval.analysis.chain import FINAL_FLOAT_FORMAT, study_metrics
from benchval.analysis.outputs import FIGURE_STEMS, STEP_TABLES, TABLE_NAMES
from benchval.analysis.settings import AnalysisSettings, settings_from_config
from benchval.analysis.study_table import StudyTable, load_study

log = logging.getLogger(__name__)

#: the module computing each statistic step (its ``step_tables(study, metrics, settings)``)
STEP_MODULES = {
    "correlations": pairwise,
    "revisions": revisions,
    "partial": partial,
    "axes": axes,
    "lofo": lofo,
    "displacement": displacement,
}
#: every figure's module, in benchval.analysis.outputs.FIGURE_STEMS order
FIGURE_MODULES = (
    fig1_cs_correlations,
    fig2_cs_downstream,
    fig3_lofo_delta_r2,
    fig4_axis_tests,
    table4_rank_displacement,
)


def compute_tables(study: StudyTable, metrics: list[str], settings: AnalysisSettings) -> dict[str, pd.DataFrame]:
    """Every analysis table (before FDR) for every metric, concatenated over metrics."""
    tables: dict[str, pd.DataFrame] = {}
    for step in STEP_TABLES:
        tables.update(STEP_MODULES[step].step_tables(study, metrics, settings))
    return tables


def apply_fdr(tables: dict[str, pd.DataFrame], settings: AnalysisSettings) -> None:
    """BH within the configured families (benchval.analysis.fdr.adjust_tables)."""
    fdr.adjust_tables(tables, settings)


def write_figures(
    tables: dict[str, pd.DataFrame],
    study: StudyTable,
    metrics: list[str],
    settings: AnalysisSettings,
    figure_dir: Path,
    study_name: str,
) -> None:
    """Figures 1-4 and Table 4 as images, one panel or colour per metric."""
    for figure in FIGURE_MODULES:
        figure_step.draw(figure, tables, study, metrics, settings, figure_dir, study_name)


def run_analysis(
    score_table_csv: str | Path,
    tasks_csv: str | Path,
    analysis_config: dict | None,
    out_dir: str | Path,
    study_name: str | None = None,
    make_figures: bool = True,
) -> dict[str, pd.DataFrame]:
    """Analyse one study: write ``out_dir/tables/*.csv`` and ``out_dir/figures/*.{png,pdf}``.

    ``analysis_config`` is the config's ``analysis:`` section (None: defaults). Returns the tables.
    """
    settings = settings_from_config(analysis_config)
    out_dir = Path(out_dir)
    study_name = study_name or out_dir.name
    study = load_study(score_table_csv, tasks_csv)
    log.info(
        "study %s: %d models, %d families, %d tasks, metrics %s",
        study_name,
        len(study.models),
        study.models["family"].nunique(),
        len(study.tasks),
        study.metrics,
    )
    metrics = study_metrics(study, settings, score_table_csv)
    tables = compute_tables(study, metrics, settings)
    apply_fdr(tables, settings)
    table_dir = out_dir / "tables"
    table_dir.mkdir(parents=True, exist_ok=True)
    for name in TABLE_NAMES:
        tables[name].to_csv(table_dir / f"{name}.csv", index=False, float_format=FINAL_FLOAT_FORMAT)
    if make_figures:
        write_figures(tables, study, metrics, settings, out_dir / "figures", study_name)
        log.info("wrote %d figures x %s", len(FIGURE_STEMS), settings.figure_formats)
    return tables


def figure_paths(out_dir: str | Path, formats=None) -> list[Path]:
    """``out_dir/figures/<stem>.<fmt>`` for every figure and format :func:`run_analysis` writes
    (default: the schema's ``analysis.figures.formats``)."""
    if formats is None:
        from benchval.plumbing.config import section_defaults

        formats = section_defaults("analysis")["figures"]["formats"]
    return [Path(out_dir) / "figures" / f"{stem}.{fmt}" for stem in FIGURE_STEMS for fmt in formats]


def table_paths(out_dir: str | Path) -> list[Path]:
    """``out_dir/tables/<name>.csv`` for every table."""
    return [Path(out_dir) / "tables" / f"{name}.csv" for name in TABLE_NAMES]
