"""Specification robustness: does a conclusion survive the analyst's open choices? (docs/analysis.md,
"Specification robustness").

The grid (config ``robustness.specification``; the main specification is the study's own settings):

* ``normalisation``, ``calibration`` (scored studies only): the option scores are recomputed from the
  stored per-option log-likelihoods (:mod:`benchval.analysis.item_level`), never by rescoring;
  calibration off drops the N/A prior of the calibrated tasks;
* ``covariates``: the partial-Spearman convention (:mod:`benchval.analysis.partial_sensitivity`);
* ``fdr_family``: ``configured`` (analysis.fdr.families), ``all_tests`` (every test of the study in one
  BH family per metric) or ``unadjusted`` (p < alpha);
* ``models``: ``pairwise`` (each statistic's own complete cases) or ``complete_case`` (per metric, only
  the models with every task's score);
* ``ci_method``: ``percentile`` (the study's) or ``basic`` (2 estimate - the percentile bounds, Davison &
  Hinkley 1997) for every bootstrap interval.

Conclusions, each with a label that either agrees with the main specification's or not:

* ``cs_downstream_spearman``, ``partial_spearman``: per benchmark-task pair, sign and "BH-adjusted p <
  alpha" (the stars of Figure 2);
* ``revision_group`` (OO - RR, OO - OR), ``delta_rho``: sign and "the interval excludes 0";
* ``lofo_gain``: per downstream task and predictor set, sign of delta R^2 and "the interval excludes 0";
* ``above_chance`` (scored studies): per model, task and metric, "the item-bootstrap interval lies above
  chance" (the scoreboard's ``ci_above_chance``; the same resamples);
* ``model_order`` (scored studies): per task and metric, the order of the models by score.

A conclusion is evaluated over the dimensions it depends on only (the others repeat it unchanged), so
its share of agreeing specifications equals the share over the whole grid. ``flipped_by`` names the
dimensions for which one alternative value alone (the rest as in the main specification) changes it.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
import pandas as pd

from benchval.analysis import axes, lofo, pairwise, revisions
from benchval.analysis.fdr import adjust_tables
from benchval.analysis.partial_sensitivity import sensitivity_table
from benchval.analysis.settings import TEST_KINDS, AnalysisSettings, FdrFamily
from benchval.analysis.study_table import StudyTable

log = logging.getLogger(__name__)

DIMENSIONS = ("normalisation", "calibration", "scoring", "covariates", "fdr_family", "models", "ci_method")
SUMMARY_COLUMNS = [
    "metric",
    "kind",
    "subject",
    "main",
    "estimate_main",
    "estimate_min",
    "estimate_max",
    "n_specifications",
    "n_agree",
    "share_agree",
    "flipped_by",
    "dimensions",
    "note",
]
NOT_APPLICABLE = "n/a"


@dataclass(frozen=True)
class Grid:
    """The values of every dimension, the main specification's first; ``substitutes``: under
    ``scoring: aligned``, task -> the variant that replaces it."""

    values: dict[str, tuple]
    substitutes: dict[str, str] = field(default_factory=dict)

    @property
    def main(self) -> dict:
        return {dimension: values[0] for dimension, values in self.values.items()}


def grid_from_config(section: dict, normalisation: str | None, tasks=None) -> Grid:
    """The grid of ``robustness.specification``; ``normalisation``: the study's (None: an imported study,
    whose scores cannot be recomputed: normalisation and calibration are n/a); ``tasks``: the study's
    (the ``aligned_scoring`` pairs it has both tasks of apply; none: the scoring dimension is n/a)."""
    substitutes = {
        task: by
        for task, by in (section.get("aligned_scoring") or {}).items()
        if tasks is not None and {task, by} <= set(tasks)
    }
    main = {
        "normalisation": normalisation,
        "calibration": True,
        "scoring": "as_declared",
        "covariates": "paper",
        "fdr_family": "configured",
        "models": "pairwise",
        "ci_method": "percentile",
    }
    values = {}
    for dimension in DIMENSIONS:
        if (dimension in ("normalisation", "calibration") and normalisation is None) or (
            dimension == "scoring" and not substitutes
        ):
            values[dimension] = (NOT_APPLICABLE,)
            continue
        declared = list(section.get(dimension, []))
        values[dimension] = (main[dimension], *[v for v in declared if v != main[dimension]])
    return Grid(values, substitutes)


def substituted(frame: pd.DataFrame, substitutes: dict[str, str]) -> pd.DataFrame:
    """``frame`` (a long table with a ``task`` column) with each task's rows replaced by its substitute's."""
    kept = frame[~frame["task"].isin(list(substitutes))]
    replacing = frame[frame["task"].isin(list(substitutes.values()))]
    renamed = replacing.assign(task=replacing["task"].map({by: task for task, by in substitutes.items()}))
    return pd.concat([kept, renamed], ignore_index=True)


# ---- the study's statistics under one data variant ---------------------------------------------


def complete_case(study: StudyTable) -> StudyTable:
    """The study restricted, per metric, to the models with every task's score of that metric."""
    scores = study.scores.dropna(subset=["value"])
    keep = []
    for _, part in scores.groupby("metric"):
        n_tasks = part["task"].nunique()
        complete = part.groupby("model")["task"].nunique()
        keep.append(part[part["model"].isin(complete[complete == n_tasks].index)])
    kept = pd.concat(keep, ignore_index=True) if keep else scores
    models = study.models.loc[sorted(set(kept["model"]))]
    return StudyTable(scores=kept, tasks=study.tasks, models=models)


def statistic_tables(study: StudyTable, metrics: list[str], settings: AnalysisSettings) -> dict[str, pd.DataFrame]:
    """Every tested table of the chain and the LOFO scores, plus each convention's partial Spearman."""
    tables = pairwise.step_tables(study, metrics, settings, intervals=False)  # labels read no rho interval
    for module in (revisions, axes, lofo):
        tables.update(module.step_tables(study, metrics, settings))
    tables["partial_conventions"] = pd.concat(
        [sensitivity_table(study, m, study.wide(m), settings) for m in metrics], ignore_index=True
    )
    return tables


def adjusted(tables: dict[str, pd.DataFrame], covariates: str, fdr_family: str, settings) -> dict[str, pd.DataFrame]:
    """The tested tables BH-adjusted under one FDR choice, with one partial convention's rows."""
    partial = tables["partial_conventions"]
    partial = partial[partial["convention"] == covariates].reset_index(drop=True)
    chosen = {name: tables[name].copy() for name in ("correlations_cs_cs", "correlations_cs_downstream")}
    chosen.update({name: tables[name].copy() for name in ("revision_pairs", "revision_groups", "delta_rho")})
    chosen["axis_tests"] = tables["axis_tests"].copy()
    chosen["partial_spearman"] = partial
    if fdr_family == "unadjusted":
        families = (FdrFamily("unadjusted", TEST_KINDS, True),)
        adjust_tables(chosen, replace(settings, fdr_families=families))
        for name in ("correlations_cs_downstream", "partial_spearman"):
            table = chosen[name]
            table["reject"] = [None if pd.isna(p) else bool(p < settings.fdr_alpha) for p in table["p"]]
        return chosen
    if fdr_family == "all_tests":
        settings = replace(settings, fdr_families=(FdrFamily("all_tests", TEST_KINDS, True),))
    adjust_tables(chosen, settings)
    return chosen


# ---- conclusions -------------------------------------------------------------------------------


def _sign(value: float) -> str:
    return "positive" if value > 0 else "negative" if value < 0 else "zero"


def significance_label(estimate: float, reject) -> str | None:
    if pd.isna(estimate) or reject is None or pd.isna(reject):
        return None
    return f"{_sign(estimate)}, {'significant' if bool(reject) else 'not significant'}"


def interval(estimate: float, low: float, high: float, method: str) -> tuple[float, float]:
    """The percentile interval, or the basic one (2 estimate - high, 2 estimate - low)."""
    if method == "basic":
        return 2 * estimate - high, 2 * estimate - low
    return low, high


def interval_label(estimate: float, low: float, high: float, method: str) -> str | None:
    if not np.isfinite([estimate, low, high]).all():
        return None
    low, high = interval(estimate, low, high, method)
    excludes = low > 0 or high < 0
    return f"{_sign(estimate)}, {'interval excludes 0' if excludes else 'interval includes 0'}"


def significance_records(tables: dict[str, pd.DataFrame], spec: dict) -> list[dict]:
    records = []
    cs_ds = tables["correlations_cs_downstream"]
    for row in cs_ds[cs_ds["role"] != "control"].itertuples():
        records.append(
            _record(
                row.metric, "cs_downstream_spearman", f"{row.benchmark} ~ {row.downstream}", spec, row.rho, row.reject
            )
        )
    for row in tables["partial_spearman"].itertuples():
        if not row.benchmark:
            continue
        subject = f"{row.benchmark} ~ {row.downstream}"
        records.append(_record(row.metric, "partial_spearman", subject, spec, row.rho_partial, row.reject))
    return records


def _record(metric, kind, subject, spec, estimate, reject=None, label=None) -> dict:
    if label is None:
        label = significance_label(estimate, reject)
    return {"metric": metric, "kind": kind, "subject": subject, "spec": spec, "estimate": estimate, "label": label}


def interval_records(tables: dict[str, pd.DataFrame], spec: dict) -> list[dict]:
    method, records = spec["ci_method"], []
    groups = tables["revision_groups"]
    groups = groups[(groups["left_out_family"] == "(none)") & groups["statistic"].astype(str).str.startswith("diff")]
    for row in groups.itertuples():
        label = interval_label(row.estimate, row.ci_low, row.ci_high, method)
        records.append(_record(row.metric, "revision_group", row.statistic, spec, row.estimate, label=label))
    for row in tables["delta_rho"].itertuples():
        if pd.isna(row.original) or not row.original:
            continue
        subject = f"{row.original} vs {row.reworked} ~ {row.downstream}"
        label = interval_label(row.estimate, row.ci_low, row.ci_high, method)
        records.append(_record(row.metric, "delta_rho", subject, spec, row.estimate, label=label))
    scores = tables["lofo_scores"]
    for row in scores[scores["predictor_set"] != "controls"].itertuples():
        label = interval_label(row.delta_r2, row.delta_r2_ci_low, row.delta_r2_ci_high, method)
        subject = f"{row.downstream}: {row.predictor_set}"
        records.append(_record(row.metric, "lofo_gain", subject, spec, row.delta_r2, label=label))
    return records


def model_task_records(standing: pd.DataFrame, spec: dict, methods) -> list[dict]:
    """``above_chance`` (per CI method in ``methods``) and ``model_order`` conclusions from item-level
    results: ``standing`` has model, task, metric, value, ci_low, ci_high, chance, chance_error_bound."""
    records = []
    for method in methods:
        for row in standing.itertuples():
            if not np.isfinite([row.value, row.ci_low, row.ci_high]).all():
                continue
            low, _ = interval(row.value, row.ci_low, row.ci_high, method)
            label = "above chance" if low > row.chance + row.chance_error_bound else "not above chance"
            subject = f"{row.model} on {row.task}"
            records.append(
                _record(row.metric, "above_chance", subject, {**spec, "ci_method": method}, row.value, label=label)
            )
    for (metric, task), part in standing.groupby(["metric", "task"], sort=False):
        part = part.dropna(subset=["value"])
        if len(part) < 2:
            continue
        records.append(
            _record(metric, "model_order", task, {**spec, "ci_method": NOT_APPLICABLE}, np.nan, label=order_label(part))
        )
    return records


def order_label(part: pd.DataFrame) -> str:
    """Models from best to worst, '=' between exact ties, '>' otherwise (names sorted within a tie)."""
    ordered = part.sort_values(["value", "model"], ascending=[False, True])
    text, previous = "", None
    for model, value in zip(ordered["model"], ordered["value"]):
        text += ("" if previous is None else (" = " if value == previous else " > ")) + model
        previous = value
    return text


# ---- the grid ----------------------------------------------------------------------------------


def study_records(
    study: StudyTable,
    metrics: list[str],
    settings: AnalysisSettings,
    grid: Grid,
    rescore: Callable[[str, bool], tuple[StudyTable, pd.DataFrame]] | None = None,
) -> list[dict]:
    """Every conclusion under every specification it depends on. ``rescore(normalisation, calibrate)``
    (scored studies): the study's score table and the per-model-task standing table recomputed from the
    stored option scores."""
    records = []
    for normalisation, calibration in itertools.product(grid.values["normalisation"], grid.values["calibration"]):
        rescored_study, standing = rescore(normalisation, calibration) if rescore is not None else (study, None)
        for scoring in grid.values["scoring"]:
            base = {"normalisation": normalisation, "calibration": calibration, "scoring": scoring}
            variant, scored = rescored_study, standing
            if scoring == "aligned":
                variant = StudyTable(substituted(variant.scores, grid.substitutes), variant.tasks, variant.models)
                scored = None if standing is None else substituted(standing, grid.substitutes)
            records += _variant_records(variant, scored, metrics, settings, grid, base)
    return records


def _variant_records(variant, standing, metrics, settings, grid: Grid, base: dict) -> list[dict]:
    """The conclusions of one data variant (normalisation, calibration, scoring) over the other choices."""
    records = []
    if standing is not None:
        spec = {**base, "covariates": NOT_APPLICABLE, "fdr_family": NOT_APPLICABLE, "models": NOT_APPLICABLE}
        records += model_task_records(standing, spec, grid.values["ci_method"])
    for models in grid.values["models"]:
        data = complete_case(variant) if models == "complete_case" else variant
        tables = statistic_tables(data, metrics, settings)
        for covariates, fdr_family in itertools.product(grid.values["covariates"], grid.values["fdr_family"]):
            spec = {
                **base,
                "covariates": covariates,
                "fdr_family": fdr_family,
                "models": models,
                "ci_method": NOT_APPLICABLE,
            }
            records += significance_records(adjusted(tables, covariates, fdr_family, settings), spec)
        for method in grid.values["ci_method"]:
            spec = {
                **base,
                "covariates": NOT_APPLICABLE,
                "fdr_family": NOT_APPLICABLE,
                "models": models,
                "ci_method": method,
            }
            records += interval_records(tables, spec)
    return records


def _differs_only_in(spec: dict, main: dict, dimension: str) -> bool:
    """``spec`` is the main specification with only ``dimension`` changed."""
    return spec[dimension] != main[dimension] and all(spec[d] == main[d] for d in DIMENSIONS if d != dimension)


def summarise(records: list[dict], grid: Grid) -> pd.DataFrame:
    """One row per conclusion: the main label, how many specifications agree with it, and which single
    choices flip it."""
    main = grid.main
    rows = []
    frame = pd.DataFrame.from_records(records, columns=["metric", "kind", "subject", "spec", "estimate", "label"])
    for (metric, kind, subject), part in frame.groupby(["metric", "kind", "subject"], sort=False):
        specs = list(part["spec"])
        labels = [None if pd.isna(label) else label for label in part["label"]]
        is_main = [all(s[d] == main[d] or s[d] == NOT_APPLICABLE for d in DIMENSIONS) for s in specs]
        if sum(is_main) != 1:
            raise RuntimeError(f"{metric}/{kind}/{subject}: {sum(is_main)} main specifications (expected 1)")
        main_index = is_main.index(True)
        main_label = labels[main_index]
        varied = [d for d in DIMENSIONS if len({s[d] for s in specs}) > 1]
        row = {"metric": metric, "kind": kind, "subject": subject, "dimensions": ", ".join(varied)}
        estimates = part["estimate"].to_numpy(float)
        finite = estimates[np.isfinite(estimates)]
        row.update(
            estimate_main=estimates[main_index],
            estimate_min=finite.min() if finite.size else np.nan,
            estimate_max=finite.max() if finite.size else np.nan,
        )
        if main_label is None:
            rows.append(
                {
                    **row,
                    "main": "",
                    "n_specifications": len(specs),
                    "n_agree": 0,
                    "share_agree": np.nan,
                    "flipped_by": "",
                    "note": "undefined under the main specification",
                }
            )
            continue
        defined = [label is not None for label in labels]
        agree = [label == main_label for label in labels]
        flipped = [
            d for d in varied if any(not a for s, a in zip(specs, agree) if _differs_only_in(s, specs[main_index], d))
        ]
        undefined = len(labels) - sum(defined)
        rows.append(
            {
                **row,
                "main": main_label,
                "n_specifications": len(specs),
                "n_agree": int(sum(agree)),
                "share_agree": sum(agree) / len(specs),
                "flipped_by": ", ".join(flipped),
                "note": f"{undefined} specification(s) undefined (counted as disagreeing)" if undefined else "",
            }
        )
    return pd.DataFrame.from_records(rows, columns=SUMMARY_COLUMNS)


def robustness_table(study, metrics, settings, grid, rescore=None) -> pd.DataFrame:
    """The specification-robustness table of a study; a conclusion kind with no conclusion gets one row
    saying why (e.g. too few models), so that no kind silently disappears."""
    table = summarise(study_records(study, metrics, settings, grid, rescore), grid)
    defined = table[table["main"] != ""]
    kinds = ["cs_downstream_spearman", "partial_spearman", "revision_group", "delta_rho", "lofo_gain"]
    if rescore is not None:
        kinds += ["above_chance", "model_order"]
    missing = []
    for metric in metrics:
        for kind in kinds:
            if not ((defined["metric"] == metric) & (defined["kind"] == kind)).any():
                missing.append(
                    {
                        "metric": metric,
                        "kind": kind,
                        "subject": "",
                        "main": "",
                        "n_specifications": 0,
                        "n_agree": 0,
                        "share_agree": np.nan,
                        "note": _why_none(study, metric, kind, settings),
                    }
                )
    return pd.concat([defined, pd.DataFrame.from_records(missing, columns=SUMMARY_COLUMNS)], ignore_index=True)


def _why_none(study: StudyTable, metric: str, kind: str, settings: AnalysisSettings) -> str:
    n_models = int(study.wide(metric).notna().any(axis=1).sum())
    if n_models < settings.min_models and kind not in ("above_chance", "model_order"):
        return f"no defined conclusion: {n_models} models with '{metric}' scores (< min_models={settings.min_models})"
    if kind in ("revision_group", "delta_rho") and not study.tasks_with_role("cs_reworked"):
        return "no defined conclusion: the study has no original/reworked pair"
    return "no defined conclusion under the main specification (see the statistic's own table for the reason)"
