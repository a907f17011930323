"""Load and validate a study's score table and task table; wide model x task matrices.

Formats are those of docs/data-contract.md section 4:

* ``score_table.csv``: ``model, family, size_b, task, metric, value`` (one row per model/task/metric)
* ``tasks.csv``: ``task, role, pairs_with, axes, label`` (axes ``;``-separated)
"""

from __future__ import annotations

import re

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.report.safe_text import shorten_label
from benchval.tasks.variants import split_variant_name

log = logging.getLogger(__name__)

#: cs_variant: a sensitivity variant of a cs_reworked task (benchval.tasks.variants), named
#: ``<reworked>__<value>``; only the per-variant revision table (revisions.variant_sensitivity) reads it
ROLES = ("cs_original", "cs_reworked", "cs_variant", "downstream", "control")
PAIRED_ROLES = ("cs_reworked", "cs_variant")
CS_ROLES = ("cs_original", "cs_reworked")
AXES = ("social", "pragmatic", "event")
SCORE_COLUMNS = ("model", "family", "size_b", "task", "metric", "value")
TASK_COLUMNS = ("task", "role", "pairs_with", "axes", "label")
#: optional tasks.csv column (written by benchval.evaluation.score_table): why a task has no scores
#: ``role_name``: the study's own word for the task's role (studies.<study>.roles), for captions and legends
OPTIONAL_TASK_COLUMNS = ("unavailable", "role_name")
#: an axis a study declares itself (studies.<study>.axes): a name, as the paper's AXES are
AXIS_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
#: metrics listed first, in this order, when present; others follow alphabetically
PREFERRED_METRIC_ORDER = ("accuracy", "macro_f1")


class TableError(ValueError):
    """An input table is malformed; the message names the file, line and column."""


def _require_columns(frame: pd.DataFrame, columns: tuple[str, ...], path: Path) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TableError(f"{path}: missing column(s) {missing}; expected {list(columns)}")


def _line(index: int) -> int:
    """1-based file line of a data row (line 1 is the header)."""
    return int(index) + 2


def read_score_table(path: str | Path) -> pd.DataFrame:
    """Read and validate ``score_table.csv``; return it with typed columns.

    Checks: required columns; non-empty strings; numeric ``size_b``, positive where given (empty: the
    size is unknown; the analyses that need one leave the model out and count it); numeric ``value``
    (NaN allowed: a missing score); one row per (model, task, metric); one family and one size per model.
    """
    path = Path(path)
    frame = pd.read_csv(path, dtype={"model": str, "family": str, "task": str, "metric": str})
    _require_columns(frame, SCORE_COLUMNS, path)
    for column in ("model", "family", "task", "metric"):
        blank = frame[column].isna() | (frame[column].astype(str).str.strip() == "")
        if blank.any():
            raise TableError(f"{path}: line {_line(blank.idxmax())}: empty '{column}'")
    for column in ("size_b", "value"):
        numeric = pd.to_numeric(frame[column], errors="coerce")
        bad = numeric.isna() & frame[column].notna()
        if bad.any():
            row = bad.idxmax()
            raise TableError(f"{path}: line {_line(row)}: '{column}' is not a number: {frame.at[row, column]!r}")
        frame[column] = numeric.astype(float)
    bad_size = frame["size_b"].notna() & ~(frame["size_b"] > 0)
    if bad_size.any():
        row = bad_size.idxmax()
        raise TableError(
            f"{path}: line {_line(row)}: size_b must be a positive number, got {frame.at[row, 'size_b']!r}"
        )
    duplicated = frame.duplicated(["model", "task", "metric"], keep="first")
    if duplicated.any():
        row = duplicated.idxmax()
        raise TableError(
            f"{path}: line {_line(row)}: duplicate (model, task, metric) = "
            f"{tuple(frame.loc[row, ['model', 'task', 'metric']])}"
        )
    for attribute in ("family", "size_b"):
        counts = frame.groupby("model")[attribute].nunique()
        if (counts > 1).any():
            model = counts[counts > 1].index[0]
            raise TableError(
                f"{path}: model {model!r} has more than one {attribute}: "
                f"{sorted(frame.loc[frame.model == model, attribute].unique())}"
            )
    return frame[list(SCORE_COLUMNS)].reset_index(drop=True)


def _split_axes(value: object) -> tuple[str, ...]:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ()
    return tuple(a.strip() for a in str(value).split(";") if a.strip())


def _check_task_row(record: dict, where: str, roles: dict) -> None:
    """Fail on a row of tasks.csv with an unknown role or axis, or a ``pairs_with`` its role does not allow
    or that names no cs_original; warn where it names a task outside the study."""
    if record["role"] not in ROLES:
        raise TableError(f"{where}: role {record['role']!r} is not one of {list(ROLES)}")
    unknown = [a for a in record["axes"] if a not in AXES and not AXIS_NAME.match(a)]
    if unknown:
        raise TableError(
            f"{where}: axis {unknown} is not a name (the paper's: {list(AXES)}; "
            "a study's own: letters, digits, _ and -)"
        )
    if record["role"] not in PAIRED_ROLES:
        if record["pairs_with"] is not None:
            raise TableError(
                f"{where}: only cs_reworked and cs_variant tasks may set 'pairs_with' (got {record['pairs_with']!r})"
            )
        return
    if record["pairs_with"] is None:
        raise TableError(f"{where}: a {record['role']} task needs 'pairs_with' (its original)")
    if record["role"] == "cs_variant":
        try:
            split_variant_name(record["task"])
        except ValueError as error:
            raise TableError(f"{where}: {error}") from None
    if record["pairs_with"] in roles and roles[record["pairs_with"]] != "cs_original":
        raise TableError(
            f"{where}: pairs_with {record['pairs_with']!r} has role {roles[record['pairs_with']]!r}, not cs_original"
        )
    if record["pairs_with"] not in roles:
        log.warning(
            "%s: pairs_with %r is not in this study: its pair statistics will be missing", where, record["pairs_with"]
        )


def read_tasks(path: str | Path) -> pd.DataFrame:
    """Read and validate ``tasks.csv``; return it indexed by task, ``axes`` as tuples.

    Checks: required columns; unique task names; known roles and axes; ``pairs_with`` set
    exactly for ``cs_reworked`` and ``cs_variant`` rows and, if that task is in the file, naming a ``cs_original``
    task (an original outside the study only makes the pair's statistics missing); empty ``label``
    falls back to the task name; the optional ``unavailable`` column (why a task has no scores)
    is kept; other extra columns are an error.
    """
    path = Path(path)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    _require_columns(frame, TASK_COLUMNS, path)
    extra = [c for c in frame.columns if c not in TASK_COLUMNS + OPTIONAL_TASK_COLUMNS]
    if extra:
        raise TableError(f"{path}: unexpected column(s) {extra}; expected {list(TASK_COLUMNS + OPTIONAL_TASK_COLUMNS)}")
    for column in OPTIONAL_TASK_COLUMNS:
        if column not in frame.columns:
            frame[column] = ""
    frame = frame.replace({"": None})
    for row, task in frame["task"].items():
        if task is None:
            raise TableError(f"{path}: line {_line(row)}: empty 'task'")
    duplicated = frame["task"].duplicated()
    if duplicated.any():
        row = duplicated.idxmax()
        raise TableError(f"{path}: line {_line(row)}: task {frame.at[row, 'task']!r} listed twice")
    frame["axes"] = frame["axes"].map(_split_axes)
    roles = dict(zip(frame["task"], frame["role"]))
    for row, record in frame.iterrows():
        _check_task_row(record.to_dict(), f"{path}: line {_line(row)} (task {record['task']!r})", roles)
    frame["label"] = frame["label"].fillna(frame["task"])
    frame["unavailable"] = frame["unavailable"].fillna("")
    frame["role_name"] = frame["role_name"].fillna(frame["role"])
    return frame.set_index("task")[["role", "pairs_with", "axes", "label", "unavailable", "role_name"]]


def order_metrics(metrics) -> list[str]:
    """Metrics in report order: accuracy, macro_f1, then the rest alphabetically."""
    metrics = set(metrics)
    first = [m for m in PREFERRED_METRIC_ORDER if m in metrics]
    return first + sorted(metrics - set(first))


@dataclass(frozen=True)
class StudyTable:
    """A validated study: long scores, per-model attributes and the task table."""

    scores: pd.DataFrame  # model, family, size_b, task, metric, value
    tasks: pd.DataFrame  # index task: role, pairs_with, axes, label
    models: pd.DataFrame  # index model: family, size_b (sorted by model name)

    @property
    def metrics(self) -> list[str]:
        return order_metrics(self.scores["metric"].unique())

    def wide(self, metric: str) -> pd.DataFrame:
        """Model x task matrix of ``metric`` (rows: every model; columns: tasks having it).

        Columns follow the task table's order; a model without a score is NaN.
        """
        subset = self.scores[self.scores["metric"] == metric]
        matrix = subset.pivot(index="model", columns="task", values="value")
        columns = [t for t in self.tasks.index if t in matrix.columns]
        return matrix.reindex(index=self.models.index, columns=columns)

    def tasks_with_role(self, role: str, available: pd.Index | list | None = None) -> list[str]:
        """Tasks of ``role`` in task-table order, optionally restricted to ``available``."""
        names = [t for t in self.tasks.index if self.tasks.at[t, "role"] == role]
        if available is not None:
            names = [t for t in names if t in set(available)]
        return names

    def label(self, task: str) -> str:
        return str(self.tasks.at[task, "label"])

    def figure_label(self, task: str) -> str:
        """The label as a figure draws it: one line of at most LABEL_WIDTH characters (the tables keep it all)."""
        return shorten_label(self.label(task))

    def role_name(self, task: str) -> str:
        """The study's own word for the task's role (its ``role`` when the study declares none)."""
        names = self.tasks["role_name"] if "role_name" in self.tasks else self.tasks["role"]
        return str(names.get(task) or self.tasks.at[task, "role"])

    @property
    def axes(self) -> tuple[str, ...]:
        """The study's axes: the paper's (AXES) when its tasks use no other, else the axes its tasks
        carry, in task-table order (a study that declares its own, studies.<study>.axes)."""
        used = list(dict.fromkeys(a for axes in self.tasks["axes"] for a in axes))
        return AXES if set(used) <= set(AXES) else tuple(used)


def load_study(score_table_csv: str | Path, tasks_csv: str | Path) -> StudyTable:
    """Read both files and cross-check them: every scored task must be in the task table."""
    scores = read_score_table(score_table_csv)
    tasks = read_tasks(tasks_csv)
    unknown = sorted(set(scores["task"]) - set(tasks.index))
    if unknown:
        raise TableError(f"{score_table_csv}: task(s) {unknown} are not listed in {tasks_csv}")
    models = scores.groupby("model")[["family", "size_b"]].first().sort_index()
    return StudyTable(scores=scores, tasks=tasks, models=models)
