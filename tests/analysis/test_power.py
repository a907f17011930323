"""Power planning (benchval.analysis.power): the simulation against analytic power, the BH per-test
alpha by hand, and the searches' consistency."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn.linear_model import Ridge
from sklearn.model_selection import LeaveOneGroupOut, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from benchval.analysis.power import (
    Design,
    Simulation,
    design_rows,
    fdr_alpha,
    feasible_grid,
    lofo_predictions,
    models_needed,
    power,
    smallest_effect,
    spearman_rows,
)

N_SIM = 4000


def _fisher_z_power(r: float, variance: float, alpha: float = 0.05) -> float:
    z, critical = np.arctanh(r) / np.sqrt(variance), stats.norm.ppf(1 - alpha / 2)
    return stats.norm.sf(critical - z) + stats.norm.cdf(-critical - z)


@pytest.mark.parametrize("n, rho", [(40, 0.3), (60, 0.25), (100, 0.2), (50, 0.0)])
def test_simulated_power_matches_fisher_z_for_a_bivariate_normal(n, rho):
    """No item noise, no family structure: the latent scores are bivariate normal. Pearson: atanh(r) ~
    N(atanh(rho), 1 / (n - 3)); Spearman: N(atanh(rho_s), 1.06 / (n - 3)) with rho_s = 6/pi asin(rho/2)
    (Fieller, Hartley & Pearson 1957). Within 3 simulation standard errors."""
    design = Design(n, 1, None, None)
    for statistic, r, variance in (
        ("pearson", rho, 1 / (n - 3)),
        ("spearman", 6 / np.pi * np.arcsin(rho / 2), 1.06 / (n - 3)),
    ):
        simulated = power(
            "rho", rho, design, Simulation(seed=2, n_sim=N_SIM, family_share=0.0, statistic=statistic), 0.05
        )
        analytic = _fisher_z_power(r, variance)
        assert abs(simulated - analytic) < 3 * np.sqrt(analytic * (1 - analytic) / N_SIM), (
            statistic,
            simulated,
            analytic,
        )


def test_spearman_rows_equal_scipy_with_ties():
    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 4, (5, 9)).astype(float), rng.integers(0, 4, (5, 9)).astype(float)
    expected = [stats.spearmanr(a, b).statistic for a, b in zip(x, y)]
    assert spearman_rows(x, y) == pytest.approx(expected)


def test_bh_per_test_alpha_by_hand():
    # Jung (2005): alpha* = q pi (1 - beta) / (1 - q (1 - pi)) = .05 * .5 * .8 / (1 - .025)
    assert fdr_alpha(0.05, 0.5, 0.8) == pytest.approx(0.02 / 0.975)
    assert fdr_alpha(0.05, 1.0, 0.8) == pytest.approx(0.04)


def test_delta_rho_grid_keeps_positive_definite_matrices_only():
    sim = Simulation(seed=0, rho_original_reworked=0.8, rho_reworked_downstream=0.3)
    grid = feasible_grid("delta_rho", sim)
    for delta in (grid[-1], grid[-1] + 0.025):
        corr = np.array([[1, 0.8, 0.3 + delta], [0.8, 1, 0.3], [0.3 + delta, 0.3, 1]])
        assert (np.linalg.eigvalsh(corr).min() > 0) == (delta == grid[-1])


def test_searches_agree_and_more_items_detect_smaller_effects():
    sim = Simulation(seed=5, n_sim=300)
    noisy, clean = Design(30, 5, 1000, 30), Design(30, 5, 1000, 3000)
    effect, achieved = smallest_effect("rho", noisy, sim, 0.05)
    assert achieved >= sim.target and power("rho", effect - 0.01, noisy, sim, 0.05) < sim.target
    assert smallest_effect("rho", clean, sim, 0.05)[0] <= effect
    n, reached = models_needed("rho", effect, noisy, sim, 0.05, most=60)
    # power at the found n reaches the target, one model fewer does not; the simulation's noise between
    # designs allows a few models either side of the 30 the effect was found at
    fewer = power("rho", effect, Design(n - 1, 5, 1000, 30), sim, 0.05)
    assert reached >= sim.target > fewer and abs(n - 30) <= 5


def test_lofo_gain_and_delta_rho_are_detected_when_large():
    sim = Simulation(seed=1, n_sim=100, n_boot=100)
    design = Design(40, 8, 1000, 500)
    assert power("lofo_gain", 0.6, design, sim, 0.05) > 0.75
    assert power("lofo_gain", 0.0, design, sim, 0.05) < 0.15
    assert power("delta_rho", 0.45, design, sim, 0.05) > 0.8


def test_too_few_models_or_no_pair_is_reported_not_simulated():
    rows = pd.DataFrame(
        design_rows(Design(3, 3, 24, 24), "t", Simulation(seed=0), 0.05, 0.5, min_models=5)
        + design_rows(Design(30, 2, 24, 24), "t", Simulation(seed=0, n_sim=50), 0.05, 0.5, kinds=["lofo_gain"])
        + design_rows(
            Design(30, 5, 24, 24),
            "t",
            Simulation(seed=0),
            0.05,
            0.5,
            kinds=["delta_rho"],
            missing={"delta_rho": "no pair"},
        )
    )
    assert rows["smallest_effect"].isna().all()
    assert rows["note"].str.contains("min_models=5").sum() == 5
    assert rows["note"].str.contains("needs 3").sum() == 1 and rows["note"].eq("no pair").sum() == 2


def test_batched_lofo_ridge_equals_sklearn():
    rng = np.random.default_rng(0)
    features, y, groups = rng.normal(size=(3, 20, 3)), rng.normal(size=(3, 20)), np.arange(20) % 4
    batched = lofo_predictions(features, y, groups, 1.0)
    pipeline = make_pipeline(StandardScaler(), Ridge(alpha=1.0))
    for s in range(3):
        expected = cross_val_predict(pipeline, features[s], y[s], groups=groups, cv=LeaveOneGroupOut())
        assert batched[s] == pytest.approx(expected, abs=1e-12)
