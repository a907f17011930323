"""The general-factor settings the steps that compute g share (kept apart from atlas_common, so that a change
to benchval.atlas.general_factor reruns only the rules that compute g)."""

from __future__ import annotations

from benchval.atlas.general_factor import FactorSettings


def factor_settings(atlas: dict):
    """benchval.atlas.general_factor.FactorSettings from ``atlas.general_factor`` (and ``atlas.min_models``)."""
    options = atlas.get("general_factor") or {}
    return FactorSettings(
        min_models=int(atlas["min_models"]),
        min_columns=int(options.get("min_columns", 3)),
        uniqueness_floor=float(options.get("uniqueness_floor", 0.05)),
    )
