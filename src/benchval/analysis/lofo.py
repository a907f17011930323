"""Leave-one-family-out ridge regression (paper section 3.6 and Appendix B).

Per downstream task Y and predictor set, with sklearn's ``LeaveOneGroupOut`` over families:
composites -> mean imputation -> standard scaling -> ridge (``alpha``, unpenalised intercept)
are fitted on the training families only and predict every model of the held-out family
(closed form; tested equal to sklearn's SimpleImputer/StandardScaler/Ridge pipeline). Composites are
the mean of constituent task scores z-standardised with *training-fold* means/SDs
(:mod:`benchval.analysis.composite`); imputation means and scaling are training-fold too.

Predictor sets: ``controls`` = log size + non-CS (control) composite; ``controls+original``;
``controls+reworked``; ``controls+both``. Scores over the pooled out-of-family predictions:
R^2 (``sklearn.metrics.r2_score``), Spearman rho (scipy), and family-balanced MAE and RMSE
(the mean over families of each family's MAE / RMSE). ``delta_r2`` = R^2(set) - R^2(controls).

Uncertainty of ``delta_r2`` (Figure 3's bars): a percentile bootstrap over models. Each of
``n_bootstrap`` resamples draws the task's models with replacement and recomputes both pooled
R^2 (1 - SSE / SS around the resample's mean) from the out-of-family predictions, which stay
those of the fits on all models (refitting per resample would cost B x folds ridge fits per set).
So the interval shows how much the gain depends on which models were evaluated, not the variability
of the fits; a resample with constant observed scores is undefined and dropped (counted).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import r2_score
from sklearn.model_selection import LeaveOneGroupOut

from benchval.analysis.bootstrap import resample_indices, rng_for, summarise
from benchval.analysis.composite import standardised_mean
from benchval.analysis.correlation import spearman
from benchval.analysis.partial import control_tasks_for
from benchval.analysis.settings import AnalysisSettings
from benchval.analysis.study_table import StudyTable
from benchval.analysis.undefined import UndefinedStatistic, require

PREDICTOR_SETS = ("controls", "controls+original", "controls+reworked", "controls+both")
SCORE_COLUMNS = [
    "metric",
    "downstream",
    "predictor_set",
    "features",
    "r2",
    "spearman",
    "mae_family_balanced",
    "rmse_family_balanced",
    "delta_r2",
    "delta_r2_ci_low",
    "delta_r2_ci_high",
    "delta_r2_n_boot_valid",
    "n_models",
    "n_families",
    "note",
]


def fold_features(X_train: np.ndarray, X_test: np.ndarray, groups: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """[log size, composite per group] for train and test rows; statistics from train rows only.

    Then mean imputation and standard scaling (population SD; a constant column is left
    unscaled, as sklearn's StandardScaler does), both fitted on the training rows.
    """

    def build(X):
        return np.column_stack([X[:, 0]] + [standardised_mean(X[:, g], X_train[:, g]) for g in groups])

    train, test = build(X_train), build(X_test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)  # an all-missing column is filled with 0
        fill = np.nan_to_num(np.nanmean(train, axis=0), nan=0.0)
    train = np.where(np.isnan(train), fill, train)
    test = np.where(np.isnan(test), fill, test)
    mean, sd = train.mean(axis=0), train.std(axis=0)
    sd[sd < 10 * np.finfo(float).eps * np.maximum(np.abs(mean), 1.0)] = 1.0
    return (train - mean) / sd, (test - mean) / sd


def ridge_predict(train: np.ndarray, y_train: np.ndarray, test: np.ndarray, alpha: float) -> np.ndarray:
    """Ridge with intercept (unpenalised), closed form: as ``sklearn.linear_model.Ridge``."""
    x_mean, y_mean = train.mean(axis=0), y_train.mean()
    centred = train - x_mean
    coef = np.linalg.solve(centred.T @ centred + alpha * np.eye(train.shape[1]), centred.T @ (y_train - y_mean))
    return (test - x_mean) @ coef + y_mean


def family_balanced_errors(y: np.ndarray, prediction: np.ndarray, families: np.ndarray) -> tuple[float, float]:
    """Mean over families of per-family MAE and of per-family RMSE."""
    frame = pd.DataFrame({"error": prediction - y, "family": families})
    per_family = frame.groupby("family")["error"].agg(
        mae=lambda e: float(np.mean(np.abs(e))), rmse=lambda e: float(np.sqrt(np.mean(e**2)))
    )
    return float(per_family["mae"].mean()), float(per_family["rmse"].mean())


def predictor_groups(study: StudyTable, wide: pd.DataFrame, settings: AnalysisSettings) -> dict[str, list[str]]:
    """Constituent tasks of each composite with this metric."""
    return {
        "control": control_tasks_for(study, wide, settings),
        "original": study.tasks_with_role("cs_original", wide.columns),
        "reworked": study.tasks_with_role("cs_reworked", wide.columns),
    }


def _set_composites(name: str, groups: dict[str, list[str]]) -> tuple[list[str], str]:
    """Composite names of a predictor set, and why it is undefined ('' if defined)."""
    wanted = {
        "controls": ["control"],
        "controls+original": ["control", "original"],
        "controls+reworked": ["control", "reworked"],
        "controls+both": ["control", "original", "reworked"],
    }[name]
    missing = [g for g in wanted if g != "control" and not groups[g]]
    if missing:
        return wanted, f"no cs_{missing[0]} tasks with this metric: the {missing[0]} composite is undefined"
    return [g for g in wanted if groups[g]], ""


def predict_out_of_family(
    features: pd.DataFrame, y: pd.Series, families: pd.Series, composite_columns: list[list[str]], alpha: float
) -> np.ndarray:
    """Pooled out-of-family predictions for every model (folds: sklearn ``LeaveOneGroupOut``).

    Equivalent to ``cross_val_predict`` of the pipeline composites -> SimpleImputer ->
    StandardScaler -> Ridge (tested against it), in closed form for speed.
    """
    position = {c: i for i, c in enumerate(features.columns)}
    groups = [[position[c] for c in columns] for columns in composite_columns]
    X, target = features.to_numpy(float), y.to_numpy(float)
    prediction = np.full(len(target), np.nan)
    for train_rows, test_rows in LeaveOneGroupOut().split(X, target, groups=families.to_numpy()):
        train, test = fold_features(X[train_rows], X[test_rows], groups)
        prediction[test_rows] = ridge_predict(train, target[train_rows], test, alpha)
    return prediction


def _score(y: np.ndarray, prediction: np.ndarray, families: np.ndarray, min_models: int) -> dict:
    mae, rmse = family_balanced_errors(y, prediction, families)
    try:
        rho, _, _ = spearman(pd.Series(y), pd.Series(prediction), min_models)
        note = ""
    except UndefinedStatistic as undefined:
        rho, note = np.nan, f"Spearman undefined: {undefined}"
    return {
        "r2": float(r2_score(y, prediction)),
        "spearman": rho,
        "mae_family_balanced": mae,
        "rmse_family_balanced": rmse,
        "note": note,
    }


def _evaluate_set(
    study: StudyTable,
    wide: pd.DataFrame,
    y: pd.Series,
    families: pd.Series,
    composites: list[str],
    groups: dict[str, list[str]],
    settings: AnalysisSettings,
) -> tuple[dict, np.ndarray]:
    """Scores and pooled predictions of one predictor set; raises UndefinedStatistic when undefined."""
    require(
        len(y) >= settings.min_models,
        f"only {len(y)} model(s) with this downstream score (< min_models={settings.min_models})",
    )
    require(
        families.nunique() >= settings.min_families_lofo,
        f"{families.nunique()} famil(ies) with scores (< min_families_lofo={settings.min_families_lofo})",
    )
    require(y.nunique() > 1, "the downstream scores are constant: R^2 undefined")
    constituents = sorted({t for g in composites for t in groups[g]}, key=list(wide.columns).index)
    frame = pd.DataFrame({"log_size": np.log(study.models.loc[y.index, "size_b"].to_numpy(float))}, index=y.index).join(
        wide.loc[y.index, constituents]
    )
    prediction = predict_out_of_family(frame, y, families, [groups[g] for g in composites], settings.ridge_alpha)
    scores = _score(y.to_numpy(float), prediction, families.to_numpy(), settings.min_models)
    if not groups["control"]:
        scores["note"] = "; ".join(filter(None, [scores["note"], "no control tasks: control composite omitted"]))
    return scores, prediction


def bootstrap_delta_r2(y: np.ndarray, prediction: np.ndarray, baseline: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """R^2(prediction) - R^2(baseline) on each resample of models (rows of ``indices``); NaN if y is constant."""
    observed = y[indices]
    total = np.sum((observed - observed.mean(axis=1, keepdims=True)) ** 2, axis=1)
    gain = np.sum((observed - baseline[indices]) ** 2, axis=1) - np.sum((observed - prediction[indices]) ** 2, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, gain / total, np.nan)


def _delta_r2_interval(
    y: np.ndarray, prediction: np.ndarray, baseline: np.ndarray, settings: AnalysisSettings, *key
) -> dict:
    indices = resample_indices(rng_for(settings.seed, "lofo_delta_r2", *key), len(y), settings.n_bootstrap)
    summary = summarise(np.nan, bootstrap_delta_r2(y, prediction, baseline, indices), settings.ci_level)
    return {
        "delta_r2_ci_low": summary["ci_low"],
        "delta_r2_ci_high": summary["ci_high"],
        "delta_r2_n_boot_valid": summary["n_boot_valid"],
    }


#: the fit figures of a predictor set whose fit is undefined (the reason goes in ``note``)
UNDEFINED_FIT = {"r2": np.nan, "spearman": np.nan, "mae_family_balanced": np.nan, "rmse_family_balanced": np.nan}


def _prediction_frame(base: dict, name: str, y: pd.Series, families: pd.Series, prediction) -> pd.DataFrame:
    """One predictor set's held-out prediction of every model of one downstream task."""
    return pd.DataFrame(
        {
            "metric": base["metric"],
            "downstream": base["downstream"],
            "predictor_set": name,
            "model": y.index,
            "family": families.to_numpy(),
            "observed": y.to_numpy(float),
            "predicted": prediction,
        }
    )


def lofo_table(
    study: StudyTable, metric: str, wide: pd.DataFrame, settings: AnalysisSettings
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(scores, predictions) for every downstream task and predictor set of one metric."""
    groups = predictor_groups(study, wide, settings)
    scores, predictions = [], []
    for task in study.tasks_with_role("downstream", wide.columns):
        y = wide[task].dropna()
        sized = study.models.loc[y.index, "size_b"].notna()  # log size is every predictor set's feature
        unsized_note = f"{int((~sized).sum())} model(s) without a size left out" if not sized.all() else ""
        y = y[sized]
        families = study.models.loc[y.index, "family"]
        base = {"metric": metric, "downstream": task, "n_models": len(y), "n_families": int(families.nunique())}
        baseline_r2, baseline_prediction = np.nan, None
        for name in PREDICTOR_SETS:
            composites, reason = _set_composites(name, groups)
            record = {
                **base,
                "predictor_set": name,
                "features": " + ".join(["log_size"] + [f"{g}_composite" for g in composites]),
            }
            try:
                require(not reason, reason)
                values, prediction = _evaluate_set(study, wide, y, families, composites, groups, settings)
                record.update(values)
                predictions.append(_prediction_frame(base, name, y, families, prediction))
            except UndefinedStatistic as undefined:
                record.update(UNDEFINED_FIT, note=str(undefined))
            if unsized_note:
                record["note"] = "; ".join(filter(None, [record.get("note") or "", unsized_note]))
            if name == "controls":
                baseline_r2 = record["r2"]
                baseline_prediction = prediction if np.isfinite(record["r2"]) else None
            record["delta_r2"] = np.nan if name == "controls" else record["r2"] - baseline_r2
            if name != "controls" and np.isfinite(record["delta_r2"]) and baseline_prediction is not None:
                record.update(
                    _delta_r2_interval(y.to_numpy(float), prediction, baseline_prediction, settings, metric, task, name)
                )
            scores.append(record)
    score_table = pd.DataFrame.from_records(scores, columns=SCORE_COLUMNS)
    prediction_table = (
        pd.concat(predictions, ignore_index=True)
        if predictions
        else pd.DataFrame(columns=["metric", "downstream", "predictor_set", "model", "family", "observed", "predicted"])
    )
    return score_table, prediction_table


def step_tables(study: StudyTable, metrics: list[str], settings) -> dict[str, pd.DataFrame]:
    """Step ``lofo`` of the chain (benchval.analysis.chain): LOFOCV scores and predictions."""
    from benchval.analysis.chain import per_metric

    def compute(metric, wide):
        scores, predictions = lofo_table(study, metric, wide, settings)
        return {"lofo_scores": scores, "lofo_predictions": predictions}

    return per_metric(study, metrics, compute)
