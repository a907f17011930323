"""Partial Spearman correlation (paper section 3.6), exact definition:

1. Keep the models with a benchmark score x, a downstream score y and a control composite c
   (if the study has control tasks).
2. Rank-transform x and y across those models (average ranks for ties). The covariates are
   *not* ranked: Z = [1, log(size_b), one-hot(family) without the first family, c].
3. Residualise rank(x) and rank(y) on Z by least squares; r = Pearson correlation of the residuals.
4. df = n - 2 - q, q = rank(Z) - 1 (covariates beyond the intercept, counted by matrix rank so
   aliased columns, e.g. a family whose sizes are identical, count once);
   t = r sqrt(df / (1 - r^2)); p = two-sided Student-t tail with df degrees of freedom.

When every covariate is an affine function of its own ranks (e.g. one-hot columns, or values
that are already ranks) this equals ``pingouin.partial_corr(method="spearman")``, which ranks
covariates too and uses the same df (tested). Undefined (NaN + reason) when df < 1 or a
residual vector is zero.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis import bootstrap
from benchval.analysis.composite import composite_series
from benchval.analysis.intervals import INTERVAL_COLUMNS, partial_spearman_samples
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.study_table import StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require


def partial_spearman(x: np.ndarray, y: np.ndarray, covariates: np.ndarray) -> tuple[float, float, int]:
    """(r, p, df) of the partial Spearman correlation of x and y given unranked ``covariates``."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    n = len(x)
    design = np.column_stack([np.ones(n), np.asarray(covariates, float).reshape(n, -1)])
    q = int(np.linalg.matrix_rank(design)) - 1
    df = n - 2 - q
    require(df >= 1, f"{n} models leave {df} residual degrees of freedom after {q} covariate column(s)")
    ranked = np.column_stack([stats.rankdata(x), stats.rankdata(y)])
    coefficients, *_ = np.linalg.lstsq(design, ranked, rcond=None)
    residuals = ranked - design @ coefficients
    norms = np.linalg.norm(residuals, axis=0)
    scale = np.linalg.norm(ranked - ranked.mean(axis=0), axis=0)
    require(
        bool(np.all(norms > 1e-10 * np.maximum(scale, 1.0))),
        "a ranked score is fully explained by the covariates (zero residual)",
    )
    r = float(np.clip(np.corrcoef(residuals[:, 0], residuals[:, 1])[0, 1], -1.0, 1.0))
    t = r * np.sqrt(df / max(1.0 - r * r, np.finfo(float).tiny))
    p = float(2.0 * stats.t.sf(abs(t), df))
    return r, p, df


def covariate_frame(study: StudyTable, wide: pd.DataFrame, control_tasks: list[str]) -> pd.DataFrame:
    """log size, family dummies (drop first) and, if any control tasks, the control composite."""
    models = study.models.loc[wide.index]
    frame = pd.DataFrame({"log_size": np.log(models["size_b"].to_numpy(float))}, index=wide.index)
    dummies = pd.get_dummies(models["family"], prefix="family", drop_first=True, dtype=float)
    frame = frame.join(dummies)
    if control_tasks:
        frame["control_composite"] = composite_series(wide, control_tasks)
    return frame


def control_tasks_for(study: StudyTable, wide: pd.DataFrame, settings: AnalysisSettings) -> list[str]:
    """Configured control-composite tasks (default: every control task) having this metric."""
    wanted = list(settings.control_composite_tasks) or study.tasks_with_role("control")
    return [t for t in wanted if t in wide.columns]


def partial_table(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """Partial Spearman for every (commonsense benchmark, downstream task) pair."""
    controls = control_tasks_for(study, wide, settings)
    predictors = study.tasks_with_role("cs_original", wide.columns) + study.tasks_with_role("cs_reworked", wide.columns)
    downstream = study.tasks_with_role("downstream", wide.columns)
    covariates = covariate_frame(study, wide, controls)
    composite_note = "" if controls else "no control tasks with this metric: control composite omitted"
    covariate_values = covariates.to_numpy(float)
    covariates_complete = np.isfinite(covariate_values).all(axis=1)
    family = study.models.loc[wide.index, "family"].to_numpy()
    records = []
    for benchmark in predictors:
        for task in downstream:
            x, y = wide[benchmark].to_numpy(float), wide[task].to_numpy(float)
            rows = np.isfinite(x) & np.isfinite(y) & covariates_complete
            left_out = int((np.isfinite(x) & np.isfinite(y) & ~covariates_complete).sum())
            record = {
                "metric": metric,
                "benchmark": benchmark,
                "downstream": task,
                "n_models": int(rows.sum()),
                "n_families": int(len(set(family[rows]))),
            }
            try:
                require(
                    rows.sum() >= settings.min_models,
                    f"only {rows.sum()} model(s) with both scores (< min_models={settings.min_models})",
                )
                used = covariate_values[rows]
                used = used[:, np.abs(used).sum(axis=0) > 0]  # dummies of families absent from these models
                r, p, df = partial_spearman(x[rows], y[rows], used)
                unsized = f"{left_out} model(s) without a size or control score left out" if left_out else ""
                interval = partial_interval(x, y, rows, family, covariates, r, settings, (metric, benchmark, task))
                note = "; ".join(filter(None, [composite_note, unsized, interval.pop("note")]))
                record.update(rho_partial=r, p=p, df=df, **interval, note=note)
            except UndefinedStatistic as undefined:
                record.update(rho_partial=np.nan, p=np.nan, df=np.nan, n_boot_valid=0, note=str(undefined))
            records.append(record)
    if not records:
        records.append(
            {
                "metric": metric,
                "benchmark": "",
                "downstream": "",
                "n_models": 0,
                "n_families": 0,
                "rho_partial": np.nan,
                "p": np.nan,
                "df": np.nan,
                "n_boot_valid": 0,
                "note": "no commonsense benchmark or no downstream task with this metric",
            }
        )
    columns = ["metric", "benchmark", "downstream", "rho_partial", "p", "df", *INTERVAL_COLUMNS]
    table = pd.DataFrame.from_records(records).reindex(columns=columns + ["n_models", "n_families", "note"])
    table["n_boot_valid"] = table["n_boot_valid"].fillna(0).astype(int)
    return table


def partial_interval(x, y, rows, family, covariates: pd.DataFrame, estimate: float, settings, key: tuple) -> dict:
    """Percentile interval of the partial Spearman r over resamples of the pair's models (``rows``),
    seeded by ``partial_spearman/<metric>/<benchmark>/<task>`` (benchval.analysis.intervals)."""
    others = covariates.loc[:, [c for c in covariates.columns if not c.startswith("family_")]].to_numpy(float)
    n = int(rows.sum())
    indices = bootstrap.resample_indices(
        bootstrap.rng_for(settings.seed, "partial_spearman", *key), n, settings.n_bootstrap
    )
    samples = partial_spearman_samples(x[rows], y[rows], family[rows], others[rows], indices)
    summary = bootstrap.summarise(estimate, samples, settings.ci_level)
    return {
        "ci_low": summary["ci_low"],
        "ci_high": summary["ci_high"],
        "n_boot_valid": summary["n_boot_valid"],
        "note": bootstrap.invalid_note(summary["n_boot_valid"], settings.n_bootstrap),
    }


def step_tables(study: StudyTable, metrics: list[str], settings) -> dict[str, pd.DataFrame]:
    """Step ``partial`` of the chain (benchval.analysis.chain)."""
    from benchval.analysis.chain import per_metric

    return per_metric(
        study, metrics, lambda metric, wide: {"partial_spearman": partial_table(study, metric, wide, settings)}
    )
