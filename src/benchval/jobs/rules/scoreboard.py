"""Functions of workflow/rules/scoreboard.smk."""

from __future__ import annotations

from collections.abc import Mapping

from benchval.jobs.layout import Layout


def model_task_pairs(layout: Layout, study: str) -> list[list[str]]:
    """Every [model, task] of a scored ``study``."""
    return [[model, task] for model in layout.study_models(study) for task in layout.study_tasks(study)]


def bootstrap_settings(config: Mapping) -> dict:
    """Only what the scoreboard uses (keys analysis.seed, else seed; analysis.n_bootstrap, analysis.ci_level,
    as the analysis settings resolve them), so that other analysis settings do not rerun it."""
    from benchval.analysis.settings import settings_from_config

    settings = settings_from_config({"seed": config["seed"], **config["analysis"]})
    return {"seed": settings.seed, "n_bootstrap": settings.n_bootstrap, "ci_level": settings.ci_level}
