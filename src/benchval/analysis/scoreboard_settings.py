"""What a scoreboard's bootstrap reads of the analysis settings (rules scoreboard, paired_comparisons,
lmeval_scoreboard): only these, so that other analysis settings do not rerun it."""

from __future__ import annotations

from collections.abc import Mapping

from benchval.analysis.settings import settings_from_config


def bootstrap_settings(config: Mapping) -> dict:
    """The seed (analysis.seed, else seed), analysis.n_bootstrap and analysis.ci_level, as
    :func:`benchval.analysis.settings.settings_from_config` resolves them."""
    settings = settings_from_config({"seed": config["seed"], **config["analysis"]})
    return {"seed": settings.seed, "n_bootstrap": settings.n_bootstrap, "ci_level": settings.ci_level}
