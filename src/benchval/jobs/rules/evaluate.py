"""Functions of workflow/rules/evaluate.smk."""

from __future__ import annotations

from collections.abc import Callable

from benchval.jobs.layout import Layout
from benchval.jobs.reruns import canonical

#: the keys of a model entry the score table reads (benchval.evaluation.score_table.score_table_from_metrics):
#: editing another key of a model reruns no score table and no analysis
SCORE_TABLE_MODEL_KEYS = ("family", "size_b")


def task_labels(layout: Layout, study: str) -> object:
    """Each task of ``study``: its label (the task's `label`, else its name; Layout.task_labels)."""
    return canonical(layout.task_labels(study))


def study_models(layout: Layout, config_provider: Callable, study: str) -> object:
    """Of each model of ``study``, the keys the score table reads (SCORE_TABLE_MODEL_KEYS)."""
    return canonical({m: config_provider(("models", m), *SCORE_TABLE_MODEL_KEYS) for m in layout.study_models(study)})
