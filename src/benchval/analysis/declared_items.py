"""The item counts an imported study's entry declares (rule task_reliability reads reliability from them)."""

from __future__ import annotations

from collections.abc import Mapping


def declared_item_counts(spec: Mapping) -> dict:
    """Of an imported study's entry ``spec``: task -> the `n_items` its task entry declares; tasks without
    one are left out (task_reliability reports them), as is a study whose `tasks` is a list."""
    tasks = spec.get("tasks")
    if not isinstance(tasks, Mapping):
        return {}
    return {task: entry["n_items"] for task, entry in tasks.items() if "n_items" in entry}
