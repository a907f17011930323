"""Does a partial-correlation conclusion depend on the convention? (docs/analysis.md,
"Partial Spearman: sensitivity").

For every (commonsense benchmark, downstream task) pair the partial Spearman correlation is
computed under three conventions, on the same models (those with x, y and every covariate of the
paper's convention), so that only the convention differs:

* ``paper``: x and y ranked, covariates raw: [log size, family one-hot, control composite]
  (exactly ``partial_spearman.csv``; :func:`benchval.analysis.partial.partial_spearman`);
* ``ranked_covariates``: every covariate rank-transformed too, the usual partial Spearman
  (= ``pingouin.partial_corr(method="spearman")``, tested);
* ``size_family_only``: the paper's ranking convention with log size and family only (no
  control composite);
* ``general_factor``: log size, family and a general-capability score g instead of the control
  composite: g = the first principal component of the study's other columns (every column but the
  pair's two, each ranked and standardised, on the models having all of them; oriented so that its
  loadings sum to a positive number); undefined where a model of the pair lacks one of those columns.

``same_conclusion_as_paper``: the sign agrees with the paper convention's and so does
"unadjusted p < fdr.alpha"; empty where either is undefined.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.partial import control_tasks_for, covariate_frame, partial_spearman
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.study_table import StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require

CONVENTIONS = ("paper", "ranked_covariates", "size_family_only", "general_factor")
COLUMNS = [
    "metric",
    "benchmark",
    "downstream",
    "convention",
    "covariates",
    "rho_partial",
    "p",
    "df",
    "n_models",
    "same_conclusion_as_paper",
    "note",
]


def general_factor(wide: pd.DataFrame, left_out: list[str]) -> pd.Series:
    """First principal component of the columns of ``wide`` not in ``left_out`` (ranked, standardised;
    complete rows only, NaN elsewhere)."""
    other = wide.drop(columns=left_out).dropna()
    if other.shape[1] < 2 or len(other) < 3:
        return pd.Series(np.nan, index=wide.index)
    ranks = other.rank()
    z = ((ranks - ranks.mean()) / ranks.std(ddof=0)).fillna(0.0).to_numpy()
    _, _, vt = np.linalg.svd(z, full_matrices=False)
    loading = vt[0] if vt[0].sum() >= 0 else -vt[0]
    return pd.Series(z @ loading, index=other.index).reindex(wide.index)


def convention_covariates(covariates: pd.DataFrame, convention: str) -> pd.DataFrame:
    """The covariate columns a convention residualises on (already restricted to the pair's models)."""
    if convention == "general_factor":
        return covariates.drop(columns=["control_composite"], errors="ignore")
    if convention == "size_family_only":
        return covariates.drop(columns=["control_composite"], errors="ignore")
    if convention == "ranked_covariates":
        return covariates.apply(lambda column: pd.Series(stats.rankdata(column), index=column.index))
    return covariates


def _same_conclusion(row: dict, paper: dict, alpha: float) -> bool | None:
    """Sign and "p < alpha" both agree with the paper convention's (None if either is undefined)."""
    if not (np.isfinite(row["rho_partial"]) and np.isfinite(paper["rho_partial"])):
        return None
    return bool(
        np.sign(row["rho_partial"]) == np.sign(paper["rho_partial"]) and (row["p"] < alpha) == (paper["p"] < alpha)
    )


def pair_rows(
    x: np.ndarray, y: np.ndarray, covariates: pd.DataFrame, base: dict, alpha: float, g: np.ndarray | None = None
) -> list[dict]:
    """The conventions' rows of one pair; ``covariates`` holds only the pair's models; ``g``: their general
    factor (None: the general_factor convention is undefined)."""
    present = covariates.loc[:, covariates.abs().sum(axis=0) > 0]  # dummies of families absent here
    rows = []
    for convention in CONVENTIONS:
        used = convention_covariates(present, convention)
        if convention == "general_factor":
            used = used.assign(general_factor=np.nan if g is None else g)
        row = {**base, "convention": convention, "covariates": " + ".join(used.columns)}
        try:
            require(bool(np.isfinite(used.to_numpy(float)).all()), "a model of the pair has no general factor")
            r, p, df = partial_spearman(x, y, used.to_numpy(float))
            row.update(rho_partial=r, p=p, df=df, note="")
        except UndefinedStatistic as undefined:
            row.update(rho_partial=np.nan, p=np.nan, df=np.nan, note=str(undefined))
        rows.append(row)
    for row in rows:
        row["same_conclusion_as_paper"] = _same_conclusion(row, rows[0], alpha)
    return rows


def sensitivity_table(study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings) -> pd.DataFrame:
    """Partial Spearman of every (commonsense benchmark, downstream task) pair under each convention."""
    covariates = covariate_frame(study, wide, control_tasks_for(study, wide, settings))
    complete = np.isfinite(covariates.to_numpy(float)).all(axis=1)
    predictors = study.tasks_with_role("cs_original", wide.columns) + study.tasks_with_role("cs_reworked", wide.columns)
    records = []
    for benchmark in predictors:
        for task in study.tasks_with_role("downstream", wide.columns):
            x, y = wide[benchmark].to_numpy(float), wide[task].to_numpy(float)
            rows = np.isfinite(x) & np.isfinite(y) & complete
            base = {"metric": metric, "benchmark": benchmark, "downstream": task, "n_models": int(rows.sum())}
            try:
                require(
                    rows.sum() >= settings.min_models,
                    f"only {rows.sum()} model(s) with both scores (< min_models={settings.min_models})",
                )
                g = general_factor(wide, [benchmark, task]).to_numpy(float)[rows]
                records += pair_rows(x[rows], y[rows], covariates[rows], base, settings.fdr_alpha, g)
            except UndefinedStatistic as undefined:
                records += [
                    {
                        **base,
                        "convention": c,
                        "covariates": "",
                        "rho_partial": np.nan,
                        "p": np.nan,
                        "df": np.nan,
                        "same_conclusion_as_paper": None,
                        "note": str(undefined),
                    }
                    for c in CONVENTIONS
                ]
    if not records:
        records.append(
            {
                "metric": metric,
                "benchmark": "",
                "downstream": "",
                "convention": "",
                "n_models": 0,
                "note": "no commonsense benchmark or no downstream task with this metric",
            }
        )
    return pd.DataFrame.from_records(records, columns=COLUMNS)
