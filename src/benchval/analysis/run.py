"""Entry point: run the whole analysis of one study and write its tables and figures."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from benchval.analysis import axes, displacement, fdr, figures, lofo, partial, revisions
from benchval.analysis.correlation import correlation_long, unique_pairs
from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES
from benchval.analysis.settings import AnalysisSettings, settings_from_config
from benchval.analysis.table import CS_ROLES, StudyTable, load_study

log = logging.getLogger(__name__)


def study_summary(study: StudyTable, metric: str, wide: pd.DataFrame) -> list[dict]:
    """Coverage per metric and role: which tasks are in, how many models have scores."""
    records = []
    for task in study.tasks.index:
        has = task in wide.columns
        records.append({"metric": metric, "task": task, "label": study.label(task), "role": study.tasks.at[task, "role"],
                        "axes": ";".join(study.tasks.at[task, "axes"]), "n_models_scored": int(wide[task].notna().sum()) if has else 0,
                        "n_models_total": len(wide),
                        "n_families_scored": int(study.models.loc[wide[task].dropna().index, "family"].nunique()) if has else 0,
                        "note": "" if has else "; ".join(filter(None, [
                            f"task has no '{metric}' scores: left out of this metric's analysis",
                            study.tasks.at[task, "unavailable"]]))})
    return records


def correlations(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings):
    """(cs x cs unique pairs, benchmark x downstream) Spearman tables for one metric."""
    cs = [t for t in study.tasks.index if t in wide.columns and study.tasks.at[t, "role"] in CS_ROLES]
    full = correlation_long(wide, cs, cs, settings.min_models, skip_diagonal=True)
    cs_cs = full[unique_pairs(full, order=cs)].reset_index(drop=True) if len(full) else full
    cs_cs.insert(0, "metric", metric)
    predictors = cs + study.tasks_with_role("control", wide.columns)
    downstream = study.tasks_with_role("downstream", wide.columns)
    cs_ds = correlation_long(wide, predictors, downstream, settings.min_models, "benchmark", "downstream")
    cs_ds.insert(0, "metric", metric)
    cs_ds.insert(2, "role", cs_ds["benchmark"].map(study.tasks["role"]))
    return cs_cs, cs_ds


def analysed_metrics(study: StudyTable, settings: AnalysisSettings) -> list[str]:
    """The study's metrics in report order, restricted to ``analysis.metrics`` when set."""
    return [m for m in study.metrics if not settings.metrics or m in settings.metrics]


def compute_tables(study: StudyTable, metrics: list[str], settings: AnalysisSettings) -> dict[str, pd.DataFrame]:
    """Every analysis table (before FDR) for every metric, concatenated over metrics."""
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in TABLE_NAMES}
    for metric in metrics:
        wide = study.wide(metric)
        log.info("metric %s: %d models x %d tasks", metric, *wide.shape)
        parts["study_summary"].append(pd.DataFrame.from_records(study_summary(study, metric, wide)))
        cs_cs, cs_ds = correlations(study, metric, wide, settings)
        parts["correlations_cs_cs"].append(cs_cs)
        parts["correlations_cs_downstream"].append(cs_ds)
        parts["revision_pairs"].append(revisions.pair_correlations(study, metric, wide, settings))
        parts["revision_groups"].append(revisions.group_comparisons(study, metric, wide, settings))
        parts["delta_rho"].append(revisions.delta_rho(study, metric, wide, settings))
        parts["revision_sensitivity"].append(revisions.variant_sensitivity(study, metric, wide, settings))
        parts["partial_spearman"].append(partial.partial_table(study, metric, wide, settings))
        parts["axis_tests"].append(axes.axis_tests(study, metric, wide, settings))
        scores, predictions = lofo.lofo_table(study, metric, wide, settings)
        parts["lofo_scores"].append(scores)
        parts["lofo_predictions"].append(predictions)
        parts["rank_displacement_pairs"].append(displacement.pair_table(study, metric, wide, settings))
    tables = {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items() if frames}
    tables["table4_rank_displacement"] = displacement.table4(tables["rank_displacement_pairs"], study, metrics,
                                                             settings.top_k)
    return tables


def _test_registrations(tables: dict[str, pd.DataFrame]) -> list[tuple[str, pd.Series, str, str]]:
    """(table name, row mask, test kind, p column) of every tested hypothesis."""
    cs_ds = tables["correlations_cs_downstream"]
    groups = tables["revision_groups"]
    return [
        ("correlations_cs_cs", None, "cs_cs_spearman", "p"),
        ("correlations_cs_downstream", cs_ds["role"] != "control", "cs_downstream_spearman", "p"),
        ("correlations_cs_downstream", cs_ds["role"] == "control", "control_downstream_spearman", "p"),
        ("revision_pairs", None, "revision_pair_spearman", "p"),
        ("revision_groups", groups["statistic"].str.startswith("diff"), "revision_group", "p_boot"),
        ("delta_rho", None, "delta_rho", "p_boot"),
        ("partial_spearman", None, "partial_spearman", "p"),
        ("axis_tests", None, "axis_test", "p_boot"),
    ]


def apply_fdr(tables: dict[str, pd.DataFrame], settings: AnalysisSettings) -> None:
    """BH within the configured families; adds ``fdr_family, p_fdr, reject`` to tested tables."""
    registered, keys = [], []
    for i, (name, mask, kind, p_column) in enumerate(_test_registrations(tables)):
        table = tables[name]
        selected = table if mask is None else table[mask]
        key = f"{name}#{i}"
        tests = fdr.register_tests(selected.reset_index(drop=True), kind, p_column, key)
        tests["table"] = name
        registered.append(tests)
        keys.append((name, mask, key))
    adjusted = fdr.adjust(pd.concat(registered, ignore_index=True), settings)
    for name, mask, key in keys:
        table = tables[name]
        if mask is None:
            tables[name] = fdr.attach(table, adjusted, key)
            continue
        part = fdr.attach(table[mask].reset_index(drop=True), adjusted, key)
        for column in ("fdr_family", "p_fdr", "reject"):
            if column not in table:
                table[column] = pd.Series([None] * len(table), index=table.index, dtype=object)
            table.loc[mask, column] = part[column].astype(object).to_numpy()
        tables[name] = table
    tables["fdr"] = adjusted[["table", "test_kind", "metric", "fdr_family", "family_size", "p", "p_fdr", "reject",
                              "fdr_note", "test_id"]]


def write_figures(tables: dict[str, pd.DataFrame], study: StudyTable, metrics: list[str], settings: AnalysisSettings,
                  figure_dir: Path, study_name: str) -> None:
    """Figures 1-4 and Table 4 as images, one panel or colour per metric."""
    args = dict(out_dir=figure_dir, formats=settings.figure_formats, dpi=settings.figure_dpi)
    figures.figure_cs_correlations(tables["correlations_cs_cs"], study, metrics, alpha=settings.fdr_alpha,
                                   study_name=study_name, **args)
    figures.figure_cs_downstream(tables["correlations_cs_downstream"], study, metrics, alpha=settings.fdr_alpha,
                                 study_name=study_name, **args)
    figures.figure_lofo(tables["lofo_scores"], study, metrics, study_name=study_name, **args)
    figures.figure_axis_tests(tables["axis_tests"], metrics, level=settings.ci_level, study_name=study_name, **args)
    figures.figure_table4(tables["table4_rank_displacement"], metrics, top_k=settings.top_k, study_name=study_name,
                          **args)


def run_analysis(score_table_csv: str | Path, tasks_csv: str | Path, analysis_config: dict | None,
                 out_dir: str | Path, study_name: str | None = None, make_figures: bool = True) -> dict[str, pd.DataFrame]:
    """Analyse one study: write ``out_dir/tables/*.csv`` and ``out_dir/figures/*.{png,pdf}``.

    ``analysis_config`` is the config's ``analysis:`` section (None: defaults). Returns the tables.
    """
    settings = settings_from_config(analysis_config)
    out_dir = Path(out_dir)
    study_name = study_name or out_dir.name
    study = load_study(score_table_csv, tasks_csv)
    log.info("study %s: %d models, %d families, %d tasks, metrics %s", study_name, len(study.models),
             study.models["family"].nunique(), len(study.tasks), study.metrics)
    metrics = analysed_metrics(study, settings)
    if not metrics:  # no scores at all: still write every output, each statistic missing with its reason
        metrics = list(settings.metrics) or ["accuracy"]
        log.warning("%s: no scores for metric(s) %s (table has %s); every statistic will be reported missing",
                    score_table_csv, metrics, study.metrics)
    tables = compute_tables(study, metrics, settings)
    apply_fdr(tables, settings)
    table_dir = out_dir / "tables"
    table_dir.mkdir(parents=True, exist_ok=True)
    for name in TABLE_NAMES:
        tables[name].to_csv(table_dir / f"{name}.csv", index=False, float_format="%.10g")
    if make_figures:
        write_figures(tables, study, metrics, settings, out_dir / "figures", study_name)
        log.info("wrote %d figures x %s", len(FIGURE_STEMS), settings.figure_formats)
    return tables
