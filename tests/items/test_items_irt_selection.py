"""IRT chosen and checked: the fit of least BIC chooses, items at a bound are never selected, anchor
points and the p-IRT estimate of the full score."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchval.items import irt_selection as sel
from benchval.items.irt import probability

FITS = pd.DataFrame({"model": ["1PL", "2PL"], "aic": [100.0, 90.0], "bic": [110.0, 120.0]})


def test_choice_by_bic_or_named():
    assert sel.choose_model(FITS, "bic") == "1PL"
    assert sel.choose_model(FITS, "aic") == "2PL"
    assert sel.choose_model(FITS, "2PL") == "2PL"
    with pytest.raises(ValueError, match="selection_model: '3PL' was not fitted"):
        sel.choose_model(FITS, "3PL")


def test_items_at_a_bound_are_never_selectable():
    params = pd.DataFrame(
        {
            "item_id": ["a", "b", "c", "d"] * 2,
            "irt_model": ["1PL"] * 4 + ["2PL"] * 4,
            "discrimination": [1, 1, 1, 1, 5.0, 1.2, 0.8, 4.9995],
            "difficulty": [0, -6.0, 1, 0, 0, 0.5, 5.9, 0],
        }
    )
    abilities = pd.DataFrame({"irt_model": ["1PL", "2PL"] * 3, "theta": [-1, -1, 0, 0, 1, 1]})
    chosen = sel.irt_selection(params, abilities, FITS.assign(bic=[130.0, 120.0]), "bic")
    assert (
        chosen.model == "2PL" and chosen.bound_counts["1PL_at_bound"] == 1 and chosen.bound_counts["2PL_at_bound"] == 2
    )
    assert chosen.bound_counts["2PL_top100_at_bound"] == 2  # with bounds allowed, both would be chosen
    assert list(chosen.information.isna()) == [True, False, False, True]  # a = 5 and a = 4.9995 sit at the bound
    assert chosen.information["b"] > 0


def test_anchor_points_and_pirt_estimate():
    rng = np.random.default_rng(4)
    theta, a, b = rng.normal(size=30), rng.lognormal(0, 0.3, 120), rng.normal(size=120)
    values = (rng.random((30, 120)) < probability(theta, a, b)).astype(float)
    candidates = np.ones(120, bool)
    candidates[:10] = False
    anchors, weights = sel.anchor_points(values, candidates, 12, seed=0)
    assert len(anchors) == 12 and weights.sum() == pytest.approx(1.0) and (anchors >= 10).all()
    items = pd.DataFrame({"discrimination": a, "difficulty": b})
    estimate = sel.pirt_estimate(values, anchors, items, values[0])
    # every item an anchor: the estimate is the observed mean
    every = sel.pirt_estimate(values, np.arange(120), items, values[0])
    assert every == pytest.approx(values.mean(axis=1))
    assert np.corrcoef(estimate, values.mean(axis=1))[0, 1] > 0.8
    # EAP ability rises with the anchor score
    assert np.all(np.diff(sel.eap_theta(np.array([[0.0] * 5, [0.6] * 5, [1.0] * 5]), np.ones(5), np.zeros(5))) > 0)
