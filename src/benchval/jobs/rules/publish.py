"""Functions of workflow/rules/publish.smk."""

from __future__ import annotations

from collections.abc import Callable

from benchval.jobs.layout import Layout
from benchval.jobs.reruns import canonical


def task_sizes_catalogue(layout: Layout, config_provider: Callable) -> object:
    """Of each scored task's entry only what the task-size table reads (its `paper_n`), so that editing a
    label or a filter setting does not rerun it."""
    entries = {task: config_provider(("tasks", task), "paper_n") for task in layout.scored_tasks()}
    return canonical({task: entry for task, entry in entries.items() if entry})
