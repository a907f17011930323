"""Axis tests: is criterion validity specific to the conceptual axis? (paper 3.6, 4.4, App. B)

Grid: every commonsense benchmark (original and reworked) x every downstream task, Spearman
rho -> Fisher z. A benchmark's axes are its own plus ``axes_for_every_cs`` (default
``pragmatic``: every commonsense benchmark is potentially relevant to pragmatic inference).

* panel ``a`` (axis A): benchmarks having A; mean z with same-axis downstream tasks (having A)
  minus mean z with the other downstream tasks.
* panel ``b`` (axis A): downstream tasks having A; mean z with same-axis benchmarks minus mean z
  with the other benchmarks (for pragmatic there are none: reported missing).
* panel ``global``: all pairs sharing at least one axis minus all pairs sharing none.

Positive = axis alignment. CIs: paired percentile bootstrap over models (one set of resamples
for the whole grid), on the models with every score of the grid.

Model sets differ from Figure 2 on purpose: Figure 2 (``correlations_cs_downstream``) uses each
pair's own models (pairwise complete), while the axis tests use the models having *every* score
of the grid (``n_models``), because the same-axis and cross-axis means are differences of
correlations that must come from the same models and the same resamples to be paired. With
missing scores the z values behind an axis test can therefore differ from Figure 2's; compare
``n_models`` here with ``n`` there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis import bootstrap
from benchval.analysis.correlation import fisher_z
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.study_table import AXES, StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require

COLUMNS = [
    "metric",
    "panel",
    "axis",
    "mean_z_same",
    "mean_z_cross",
    "n_pairs_same",
    "n_pairs_cross",
    *bootstrap.SUMMARY_COLUMNS,
    "n_models",
    "note",
]


def comparisons(
    benchmark_axes: list[set], task_axes: list[set], axis_names=AXES
) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    """(panel, axis, same mask, cross mask) over the benchmark x task grid, for each of ``axis_names``
    (the study's axes: the paper's by default)."""
    has_b = {a: np.array([a in axes for axes in benchmark_axes], dtype=bool) for a in axis_names}
    has_t = {a: np.array([a in axes for axes in task_axes], dtype=bool) for a in axis_names}
    result = []
    for axis in axis_names:
        same = has_b[axis][:, None] & has_t[axis][None, :]
        result.append(("a", axis, same, has_b[axis][:, None] & ~has_t[axis][None, :]))
        result.append(("b", axis, same, ~has_b[axis][:, None] & has_t[axis][None, :]))
    shared = np.array([[bool(b & t) for t in task_axes] for b in benchmark_axes], dtype=bool).reshape(
        len(benchmark_axes), len(task_axes)
    )
    result.append(("global", "all", shared, ~shared))
    return result


def _pair_counts(metric: str, panel: str, axis: str, same: np.ndarray, cross: np.ndarray, n_models: int) -> dict:
    """The columns of a comparison's row that it has whether or not its test is defined."""
    return {
        "metric": metric,
        "panel": panel,
        "axis": axis,
        "n_pairs_same": int(same.sum()),
        "n_pairs_cross": int(cross.sum()),
        "n_models": n_models,
    }


def _reason(panel: str, axis: str, same: np.ndarray, cross: np.ndarray) -> str:
    if panel == "global":
        return (
            ""
            if same.any() and cross.any()
            else ("no axis-matched benchmark-task pair" if not same.any() else "no axis-mismatched benchmark-task pair")
        )
    if not same.any():
        return f"no benchmark-task pair shares the {axis} axis"
    if not cross.any():
        other = "downstream task outside" if panel == "a" else "commonsense benchmark outside"
        return f"no {other} the {axis} axis to compare with"
    return ""


def axis_tests(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """All panel a / b / global comparisons for one metric."""
    benchmarks = study.tasks_with_role("cs_original", wide.columns) + study.tasks_with_role("cs_reworked", wide.columns)
    tasks = study.tasks_with_role("downstream", wide.columns)
    extra = set(settings.axes_for_every_cs)
    benchmark_axes = [set(study.tasks.at[b, "axes"]) | extra for b in benchmarks]
    task_axes = [set(study.tasks.at[t, "axes"]) for t in tasks]
    complete = wide[benchmarks + tasks].dropna()
    grid = comparisons(benchmark_axes, task_axes, study.axes)
    try:
        require(benchmarks and tasks, f"no commonsense benchmark or no downstream task with '{metric}' scores")
        require(
            len(complete) >= settings.min_models,
            f"only {len(complete)} model(s) with every benchmark and downstream score "
            f"(< min_models={settings.min_models})",
        )
    except UndefinedStatistic as undefined:
        return pd.DataFrame.from_records(
            [
                {
                    **_pair_counts(metric, panel, axis, same, cross, len(complete)),
                    "n_boot_valid": 0,
                    "note": str(undefined),
                }
                for panel, axis, same, cross in grid
            ],
            columns=COLUMNS,
        )
    nb = len(benchmarks)
    matrix = complete.to_numpy(float)
    point_z = fisher_z(bootstrap.spearman_matrices(matrix)[:nb, nb:], settings.fisher_z_max_abs_rho)
    indices = bootstrap.resample_indices(
        bootstrap.rng_for(settings.seed, "axis_tests", metric), len(matrix), settings.n_bootstrap
    )
    boot_z = fisher_z(bootstrap.bootstrap_spearman(matrix, indices)[:, :nb, nb:], settings.fisher_z_max_abs_rho)
    records = []
    for panel, axis, same, cross in grid:
        record = _pair_counts(metric, panel, axis, same, cross, len(complete))
        reason = _reason(panel, axis, same, cross)
        if reason:
            record.update(n_boot_valid=0, note=reason)
        else:
            same_point, cross_point = point_z[same].mean(), point_z[cross].mean()
            samples = boot_z[:, same].mean(axis=1) - boot_z[:, cross].mean(axis=1)
            summary = bootstrap.summarise(float(same_point - cross_point), samples, settings.ci_level)
            record.update(
                mean_z_same=float(same_point),
                mean_z_cross=float(cross_point),
                **summary,
                note=bootstrap.invalid_note(summary["n_boot_valid"], settings.n_bootstrap),
            )
        records.append(record)
    return pd.DataFrame.from_records(records, columns=COLUMNS)


def step_tables(study: StudyTable, metrics: list[str], settings) -> dict[str, pd.DataFrame]:
    """Step ``axes`` of the chain (benchval.analysis.chain); bootstrap CIs are computed here."""
    from benchval.analysis.chain import per_metric

    return per_metric(study, metrics, lambda metric, wide: {"axis_tests": axis_tests(study, metric, wide, settings)})
