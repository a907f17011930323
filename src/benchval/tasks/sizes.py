"""The task-size table (results/tables/task_sizes.csv): each task's n beside the paper's n.

Read from the files ``prepare_task`` writes: ``results/tasks/{task}.meta.json`` (``n_raw``,
``n_final``, role, axes, ``unavailable``) and the filter report ``{task}.filters.json`` beside
it. ``n_after_filters`` is the number of items before the seeded subsample (the ``subsample``
step's ``before``; every step when there is none); ``paper_n`` comes from the catalogue
(``tasks.<task>.paper_n``), falling back to the meta file. ``deviation`` says, for a task whose
``n_after_filters`` differs from ``paper_n`` by more than 10 %, why: the sentence recorded under
``paper_n_deviations.<task>`` (config/catalogue/paper_n_deviations.yaml), or that none is recorded;
for a task that could not be built, why not. Empty otherwise.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Iterable, Mapping

import pandas as pd

COLUMNS = ["task", "role", "axes", "n_raw", "n_after_filters", "n_final", "paper_n", "deviation", "notes"]
SUBSAMPLE_STEP = "subsample"
DEVIATION_LIMIT = 0.10  # relative difference from the paper's n above which a reason is shown

log = logging.getLogger(__name__)


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: invalid JSON ({error.msg}, line {error.lineno})") from None


def filters_path(meta_path: Path) -> Path:
    """``{task}.filters.json`` beside ``{task}.meta.json``."""
    return meta_path.with_name(meta_path.name.removesuffix(".meta.json") + ".filters.json")


def n_after_filters(steps: list[dict], n_final: int) -> int:
    """Items left by the filters, before the seeded subsample."""
    for step in steps:
        if step["filter"] == SUBSAMPLE_STEP:
            return int(step["before"])
    return int(steps[-1]["after"]) if steps else int(n_final)


def filter_notes(steps: list[dict]) -> str:
    """'filter: reason -count, ...' for every step that removed items (the subsample excluded)."""
    parts = []
    for step in steps:
        if step["filter"] == SUBSAMPLE_STEP or not step.get("removed"):
            continue
        reasons = ", ".join(f"{reason} -{count}" for reason, count in step["removed"].items())
        parts.append(f"{step['filter']}: {reasons}")
    return "; ".join(parts)


def deviates(n: int, paper_n: int | None) -> bool:
    """True when ``n`` differs from the paper's n by more than DEVIATION_LIMIT (of the paper's n)."""
    return paper_n is not None and abs(n - paper_n) > DEVIATION_LIMIT * paper_n


def deviation(task: str, n: int, paper_n: int | None, reasons: Mapping[str, str], unavailable: str | None) -> str:
    """The ``deviation`` cell: why n differs from the paper's by more than 10 %, else ""."""
    if unavailable:
        return f"not built here: {unavailable}"
    if not deviates(n, paper_n):
        return ""
    if task in reasons:
        return " ".join(str(reasons[task]).split())
    log.warning(
        "task %s: n=%d differs from the paper's %d by more than %d%% and no reason is recorded",
        task,
        n,
        paper_n,
        round(100 * DEVIATION_LIMIT),
    )
    return f"no reason recorded (paper_n_deviations.{task}) for n {n} vs the paper's {paper_n}"


def task_sizes_table(
    meta_json_paths: Iterable[Path | str], catalogue: Mapping, deviations: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """One row per task: task, role, axes (';'-joined), n_raw, n_after_filters, n_final, paper_n,
    deviation, notes.

    ``catalogue`` is the merged config (with a ``tasks`` section) or the ``tasks`` mapping itself;
    ``deviations`` (task -> reason) defaults to the merged config's ``paper_n_deviations``.
    Rows follow the order of ``meta_json_paths``.
    """
    tasks = catalogue.get("tasks", catalogue)
    reasons = dict(deviations if deviations is not None else catalogue.get("paper_n_deviations") or {})
    rows = []
    for meta_path in map(Path, meta_json_paths):
        meta = _read_json(meta_path)
        for key in ("task", "role", "n_raw", "n_final"):
            if key not in meta:
                raise KeyError(f"{meta_path}: missing key {key!r}")
        steps = _read_json(filters_path(meta_path))["steps"] if filters_path(meta_path).is_file() else []
        spec = tasks.get(meta["task"], {})
        notes = filter_notes(steps)
        if meta.get("unavailable"):
            notes = f"unavailable: {meta['unavailable']}" + (f"; {notes}" if notes else "")
        paper_n = spec.get("paper_n", meta.get("paper_n"))
        after = n_after_filters(steps, meta["n_final"])
        rows.append(
            {
                "task": meta["task"],
                "role": meta["role"],
                "axes": ";".join(meta.get("axes") or []),
                "n_raw": int(meta["n_raw"]),
                "n_after_filters": after,
                "n_final": int(meta["n_final"]),
                "paper_n": pd.NA if paper_n is None else int(paper_n),
                "deviation": deviation(meta["task"], after, paper_n, reasons, meta.get("unavailable")),
                "notes": notes,
            }
        )
    table = pd.DataFrame(rows, columns=COLUMNS)
    return table.astype({"n_raw": "int64", "n_after_filters": "int64", "n_final": "int64", "paper_n": "Int64"})
