"""The analysis settings take their defaults and allowed values from analysis.schema.yaml only."""

from __future__ import annotations

import pytest
import yaml
from snakemake.exceptions import WorkflowError

from benchval.analysis.settings import SCHEMA, TEST_KINDS, settings_from_config


def test_defaults_are_the_schemas():
    schema = yaml.safe_load(SCHEMA.read_text())["properties"]
    settings = settings_from_config({"seed": 3})
    numbers = {key: spec["default"] for key, spec in schema.items() if isinstance(spec.get("default"), (int, float))}
    assert len(numbers) == 7  # n_bootstrap, ci_level, min_models, fisher_z_max_abs_rho, ridge_alpha, ...
    for key, default in numbers.items():
        assert getattr(settings, key) == default, key
    assert settings.axes_for_every_cs == tuple(schema["axes_for_every_cs"]["default"])
    assert settings.fdr_alpha == schema["fdr"]["properties"]["alpha"]["default"]
    assert settings.figure_formats == tuple(schema["figures"]["properties"]["formats"]["default"])
    assert settings.figure_dpi == schema["figures"]["properties"]["dpi"]["default"]
    assert [family.tests for family in settings.fdr_families] == [(kind,) for kind in TEST_KINDS]
    assert settings.seed == 3 and settings_from_config({}).seed is None


def test_values_the_schema_does_not_allow_fail():
    with pytest.raises(WorkflowError, match="combine"):
        settings_from_config({"control_composite": {"combine": "median"}})
    with pytest.raises(WorkflowError, match="n_bootstrap"):
        settings_from_config({"n_bootstrap": 5})
    with pytest.raises(WorkflowError, match="no_such_test"):
        settings_from_config({"fdr": {"families": [{"name": "x", "tests": ["no_such_test"]}]}})
    with pytest.raises(ValueError, match="more than one family"):
        settings_from_config(
            {"fdr": {"families": [{"name": "a", "tests": ["axis_test"]}, {"name": "b", "tests": ["axis_test"]}]}}
        )
