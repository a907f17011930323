"""IRT with mirt: parameters simulated from known values are recovered (the workflow's gate runs the
same recovery before any real data is fitted), and the gate rejects a poor recovery."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchval.items import irt


def test_recovery_of_simulated_parameters():
    table = irt.recovery([{"name": "test", "respondents": 600, "items": 30, "gate": True}], seed=3)
    two = table[table["model"] == "2PL"].iloc[0]
    one = table[table["model"] == "1PL"].iloc[0]
    # measured here: 2PL r(difficulty) ~0.99, r(discrimination) ~0.9, r(theta) ~0.93; 1PL r(difficulty) ~0.99
    assert two["r_difficulty"] > 0.95 and two["r_discrimination"] > 0.75 and two["r_theta"] > 0.85
    assert one["r_difficulty"] > 0.95 and one["r_theta"] > 0.85 and np.isnan(one["r_discrimination"])
    assert irt.check_recovery(table, {"difficulty": 0.95, "discrimination": 0.75, "theta": 0.85}) == []


def test_recovery_gate_rejects_a_poor_fit_and_ignores_ungated_designs():
    table = pd.DataFrame(
        [
            {
                "design": "big",
                "gate": True,
                "model": "2PL",
                "r_difficulty": 0.99,
                "r_discrimination": 0.5,
                "r_theta": 0.95,
                "converged": True,
            },
            {
                "design": "small",
                "gate": False,
                "model": "2PL",
                "r_difficulty": 0.2,
                "r_discrimination": 0.1,
                "r_theta": 0.3,
                "converged": True,
            },
        ]
    )
    failures = irt.check_recovery(table, {"difficulty": 0.95, "discrimination": 0.8, "theta": 0.9})
    assert failures == ["big 2PL: r(discrimination) = 0.500 < 0.8"]


def test_fit_refuses_constant_items_and_missing_cells():
    matrix = pd.DataFrame({"a": [1.0, 0.0, 1.0], "b": [1.0, 1.0, 1.0]})
    with pytest.raises(ValueError, match="answered alike"):
        irt.fit_irt(matrix, "2PL")
    with pytest.raises(ValueError, match="complete 0/1"):
        irt.fit_irt(matrix.assign(b=[1.0, np.nan, 0.0]), "2PL")
    with pytest.raises(ValueError, match="1PL"):
        irt.fit_irt(matrix, "3PL")


def test_information_by_hand():
    info = irt.information(np.array([0.0]), np.array([2.0]), np.array([0.0]))
    assert info[0, 0] == pytest.approx(4 * 0.25)


def test_no_real_data_is_fitted_after_a_failed_recovery(tmp_path):
    from benchval.items.steps.items_irt import run_irt_steps

    table = pd.DataFrame(
        [
            {
                "design": "big",
                "gate": True,
                "model": "2PL",
                "r_difficulty": 0.5,
                "r_discrimination": 0.9,
                "r_theta": 0.95,
                "converged": True,
            }
        ]
    )
    table.to_csv(tmp_path / "recovery.csv", index=False)
    irt = {"models": ["2PL"], "max_iter": 50, "recovery": {"thresholds": {"difficulty": 0.95}}}
    settings = {"irt": irt, "min_model_coverage": 0.95}
    with pytest.raises(RuntimeError, match="recovery failed, no real data is fitted"):
        run_irt_steps(str(tmp_path / "absent.parquet"), ["t"], settings, str(tmp_path / "recovery.csv"), str(tmp_path))
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("key", ["min_model_coverage", "irt.models", "irt.max_iter", "irt.recovery.thresholds"])
def test_the_irt_settings_name_a_key_the_rule_did_not_pass(key):
    from benchval.items.irt_settings import IrtSettings
    from benchval.plumbing.config_error import ConfigError

    items = {"min_model_coverage": 0.9, "irt": {"models": ["1PL"], "max_iter": 50, "recovery": {"thresholds": {}}}}
    assert IrtSettings.from_config(items) == IrtSettings(0.9, ("1PL",), 50, {})
    *parents, last = key.split(".")
    section = items
    for parent in parents:
        section = section[parent]
    del section[last]
    with pytest.raises(ConfigError, match=rf"^items\.{key}: missing"):
        IrtSettings.from_config(items)
