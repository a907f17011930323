"""Item response theory on a 0/1 response matrix with the `mirt` package (docs/items.md says why mirt).

1PL (Rasch: every discrimination 1) and 2PL, fitted by marginal maximum likelihood (EM, Gauss-Hermite
quadrature, abilities ~ N(0, 1)); P(correct | theta) = 1 / (1 + exp(-a (theta - b))), ``a`` the
discrimination, ``b`` the difficulty. Per fit: log-likelihood, AIC, BIC, convergence; per item its
infit / outfit mean squares (mirt.itemfit); per model its EAP ability (mirt.fscores).

:func:`recovery` simulates responses from known parameters and fits them back: the workflow runs it
before any real data is fitted (rule items_irt_recovery), and fails if a correlation falls short.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

MODELS = ("1PL", "2PL")


@dataclass(frozen=True)
class IrtFit:
    model: str
    items: pd.DataFrame  # index item_id: discrimination, difficulty, infit, outfit
    abilities: pd.Series  # index respondent (model/run): EAP theta
    fit: dict  # log_likelihood, aic, bic, n_parameters, converged, n_iterations, n_items, n_respondents


def fit_irt(matrix: pd.DataFrame, model: str, max_iter: int = 500) -> IrtFit:
    """Fit ``model`` (1PL / 2PL) to a complete 0/1 matrix (respondents x items; constant items must be
    left out first: they carry no information and their difficulty is infinite)."""
    import mirt

    if model not in MODELS:
        raise ValueError(f"IRT model must be one of {MODELS}, got {model!r}")
    values = matrix.to_numpy(float)
    if np.isnan(values).any() or not np.isin(values, (0.0, 1.0)).all():
        raise ValueError("IRT needs a complete 0/1 matrix")
    constant = (values.min(axis=0) == values.max(axis=0)).sum()
    if constant:
        raise ValueError(f"{constant} item(s) answered alike by every respondent: leave them out first")
    data = values.astype(int)
    result = mirt.fit_mirt(data, model=model, max_iter=max_iter, compute_standard_errors=False)
    coef = result.coef()
    fit_table = mirt.itemfit(result, data)
    items = pd.DataFrame(
        {
            "discrimination": coef["discrimination"].to_numpy(float),
            "difficulty": coef["difficulty"].to_numpy(float),
            "infit": fit_table["infit"].to_numpy(float),
            "outfit": fit_table["outfit"].to_numpy(float),
        },
        index=pd.Index(matrix.columns, name="item_id"),
    )
    theta = np.asarray(mirt.fscores(result, data, method="EAP").theta, float).ravel()
    stats = result.fit_statistics()
    summary = {
        "model": model,
        "log_likelihood": float(stats["log_likelihood"]),
        "aic": float(stats["aic"]),
        "bic": float(stats["bic"]),
        "n_parameters": int(stats["n_parameters"]),
        "converged": bool(stats["converged"]),
        "n_iterations": int(stats["n_iterations"]),
        "n_items": matrix.shape[1],
        "n_respondents": matrix.shape[0],
        "infit_outside_0.7_1.3": int(((items["infit"] < 0.7) | (items["infit"] > 1.3)).sum()),
    }
    return IrtFit(model, items, pd.Series(theta, index=matrix.index, name="theta"), summary)


def probability(theta: np.ndarray, discrimination: np.ndarray, difficulty: np.ndarray) -> np.ndarray:
    """P(correct), respondents x items."""
    return 1.0 / (1.0 + np.exp(-discrimination[None, :] * (np.asarray(theta)[:, None] - difficulty[None, :])))


def information(theta: np.ndarray, discrimination: np.ndarray, difficulty: np.ndarray) -> np.ndarray:
    """Fisher information of each item at each theta: a^2 P (1 - P), respondents x items."""
    p = probability(theta, discrimination, difficulty)
    return discrimination[None, :] ** 2 * p * (1.0 - p)


def simulate(n_respondents: int, n_items: int, model: str, seed: int) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray]:
    """0/1 responses from known parameters: theta ~ N(0, 1), b ~ N(0, 1), a ~ lognormal(0, 0.3) (1 for
    1PL). Constant simulated items are redrawn away by dropping them (their parameters too)."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 1.0, n_respondents)
    difficulty = rng.normal(0.0, 1.0, n_items)
    discrimination = np.ones(n_items) if model == "1PL" else rng.lognormal(0.0, 0.3, n_items)
    responses = (rng.random((n_respondents, n_items)) < probability(theta, discrimination, difficulty)).astype(float)
    keep = responses.min(axis=0) != responses.max(axis=0)
    names = [f"sim_{i}" for i in range(n_items)]
    matrix = pd.DataFrame(responses[:, keep], columns=np.array(names)[keep])
    truth = pd.DataFrame({"discrimination": discrimination[keep], "difficulty": difficulty[keep]}, index=matrix.columns)
    return matrix, truth, theta


def recovery(designs: list[dict], seed: int) -> pd.DataFrame:
    """Fit 1PL and 2PL back to responses simulated from each, for every design (``name``,
    ``respondents``, ``items``, ``gate``): Pearson r of true and estimated parameters. A design with
    ``gate: true`` is checked by :func:`check_recovery`; the others show what the studies' sizes allow."""
    rows = []
    for index, design in enumerate(designs):
        for model in MODELS:
            matrix, truth, theta = simulate(int(design["respondents"]), int(design["items"]), model, seed + index)
            fitted = fit_irt(matrix, model)
            rows.append(
                {
                    "design": design["name"],
                    "gate": bool(design["gate"]),
                    "model": model,
                    "n_respondents": matrix.shape[0],
                    "n_items": matrix.shape[1],
                    "r_difficulty": float(np.corrcoef(truth["difficulty"], fitted.items["difficulty"])[0, 1]),
                    "r_theta": float(np.corrcoef(theta, fitted.abilities)[0, 1]),
                    "r_discrimination": (
                        float(np.corrcoef(truth["discrimination"], fitted.items["discrimination"])[0, 1])
                        if model == "2PL"
                        else np.nan
                    ),
                    "converged": fitted.fit["converged"],
                }
            )
    return pd.DataFrame(rows)


def check_recovery(table: pd.DataFrame, thresholds: dict) -> list[str]:
    """The failures of the gated designs: every ``r_<parameter>`` below its threshold
    (``thresholds``: parameter -> min r)."""
    failures = []
    for _, row in table[table["gate"]].iterrows():
        for parameter, minimum in thresholds.items():
            value = row[f"r_{parameter}"]
            if np.isfinite(value) and value < minimum:
                failures.append(f"{row['design']} {row['model']}: r({parameter}) = {value:.3f} < {minimum}")
        if not row["converged"]:
            failures.append(f"{row['design']} {row['model']}: EM did not converge")
    return failures


def recovery_passed(path: str, thresholds: dict) -> None:
    """Raise unless the recovery table at ``path`` passes ``thresholds`` (no real data is fitted otherwise)."""
    failures = check_recovery(pd.read_csv(path), thresholds)
    if failures:
        raise RuntimeError(f"{path}: IRT recovery failed, no real data is fitted: {'; '.join(failures)}")
