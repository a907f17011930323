"""The task adapter interface and the filter report every adapter fills in.

An adapter turns one dataset's raw files into items (see docs/data-contract.md, section 1).
Adapters are registered by name with :func:`register`; config/config.yaml names the adapter of
each task under ``tasks.<task>.adapter`` and passes it ``options`` (filter thresholds, column
choices) and the resolved raw file paths.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from benchval.plumbing.config import allowed_values

# the allowed values of a task's scoring_mode, role and axes are tasks.schema.yaml's
SCORING_MODES = tuple(allowed_values("tasks", "scoring_mode"))
ROLES = tuple(allowed_values("tasks", "role"))
AXES = tuple(allowed_values("tasks", "axes"))


class TaskDataError(ValueError):
    """Raw data that cannot be read; the message names the file and line or key."""

    def __init__(self, path: Path | str, where: str | int | None, problem: str):
        location = f"{path}" if where is None else f"{path}, {'line ' if isinstance(where, int) else ''}{where}"
        super().__init__(f"{location}: {problem}")
        self.path, self.where, self.problem = str(path), where, problem


class TaskUnavailable(RuntimeError):
    """The task's data cannot be obtained in this environment (e.g. it needs the Hugging Face Hub).

    ``prepare_task`` turns it into an empty items file whose metadata says ``unavailable: <reason>``
    instead of failing the workflow; later steps treat the task as missing with that reason.
    """

    def __init__(self, task: str, reason: str):
        super().__init__(f"task {task!r} unavailable: {reason}")
        self.task, self.reason = task, reason


@dataclass
class Item:
    """One multiple-choice item in the shape of the items table."""

    id: str
    context: str
    options: list[str]
    label: int
    source_row: int
    target: str | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.label < len(self.options):
            raise ValueError(f"item {self.id}: label {self.label} outside 0..{len(self.options) - 1}")


LISTED_ROWS = 50  # rows named per step in filters.json (the count is always complete)
LABEL_SHARE_TOLERANCE = 5.0  # percentage points a step may move a label's share before it is flagged


def source(path: Path | str | None = None, line: int | None = None, id: object = None, **extra) -> dict:
    """Where a raw row came from, as filters.json lists it: the file's name and the 1-based line,
    and/or the row's id (e.g. a record key or item id); ``extra`` adds keys (e.g. ``position``)."""
    ref = {}
    if path is not None:
        ref["file"] = Path(str(path)).name
    if line is not None:
        ref["line"] = int(line)
    if id is not None:
        ref["id"] = str(id)
    ref.update(extra)
    return ref


def default_source(record: object) -> dict | None:
    """The source of a record when the caller names none: a raw row with ``path`` and ``line``
    (e.g. downstream ``Row``), an :class:`Item` (id and source row), or the first of those inside
    a tuple or list. None when the record's shape is not one of these."""
    if hasattr(record, "path") and hasattr(record, "line"):
        return source(record.path, record.line)
    if isinstance(record, Item):
        return source(line=record.source_row, id=record.id)
    if isinstance(record, (tuple, list)):
        for part in record:
            if not isinstance(part, (tuple, list)) and (found := default_source(part)) is not None:
                return found
    return None


@dataclass
class FilterStep:
    name: str
    before: int
    after: int
    removed: dict[str, int]
    removed_rows: list[dict] = field(default_factory=list)  # the first LISTED_ROWS, each with its reason
    changed_rows: list[dict] = field(default_factory=list)  # the first LISTED_ROWS, each with its change
    n_changed: int = 0
    label_shares: dict | None = None


def listed(rows: Iterable[tuple[Mapping, str]], key: str) -> tuple[list[dict], int]:
    """The first LISTED_ROWS of (source, text) pairs as ``{**source, key: text}`` and their count."""
    out, count = [], 0
    for ref, text in rows:
        if count < LISTED_ROWS:
            out.append({**ref, key: text})
        count += 1
    return out, count


def label_shares(labels: Iterable[object]) -> dict[str, float]:
    """Each label's share of ``labels`` in percent (label names as text, sorted)."""
    counts = Counter(str(label) for label in labels)
    total = sum(counts.values())
    return {label: 100.0 * counts[label] / total for label in sorted(counts)} if total else {}


def share_shift(before: Mapping[str, float], after: Mapping[str, float]) -> float:
    """The largest change of any label's share, in percentage points (a label gone counts as 0%)."""
    labels = set(before) | set(after)
    return max((abs(after.get(label, 0.0) - before.get(label, 0.0)) for label in labels), default=0.0)


@dataclass
class FilterReport:
    """Ordered record of every filter applied to a task: counts before/after and per reason, and
    where each removed or changed row came from (file and line, or id; the first LISTED_ROWS)."""

    task: str
    steps: list[FilterStep] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def apply(
        self,
        name: str,
        items: list,
        reason_of: Callable[[object], str | None],
        source_of: Callable[[object], Mapping] | None = None,
        label_of: Callable[[object], object] | None = None,
        tolerance: float = LABEL_SHARE_TOLERANCE,
    ) -> list:
        """Keep the items for which ``reason_of`` returns None; count the others by reason and list
        where they came from (``source_of(item)``, default :func:`default_source`, else the item's
        position in this step's input). ``label_of``: also record the label shares before and after
        the step and flag a shift of more than ``tolerance`` percentage points."""
        kept, removed, removed_at = [], Counter(), []
        for position, item in enumerate(items):
            reason = reason_of(item)
            if reason is None:
                kept.append(item)
                continue
            removed[reason] += 1
            if len(removed_at) < LISTED_ROWS:
                ref = (source_of or default_source)(item)
                removed_at.append((dict(ref) if ref is not None else {"position": position}, reason))
        self.record(name, len(items), len(kept), removed, removed_at=removed_at)
        if label_of is not None:
            self.check_label_shares(
                name, [label_of(item) for item in items], [label_of(item) for item in kept], tolerance
            )
        return kept

    def record(
        self,
        name: str,
        before: int,
        after: int,
        removed: Mapping[str, int],
        removed_at: Iterable[tuple[Mapping, str]] = (),
        changed: Iterable[tuple[Mapping, str]] = (),
    ) -> None:
        """Add a step. ``removed_at``: (source, reason) of removed rows (only the first LISTED_ROWS are
        kept, the count is ``before - after``); ``changed``: (source, what was changed) of rows the step
        altered but kept (a repair, a shortened context), all of them, so that they are counted."""
        if before - after != sum(removed.values()):
            raise ValueError(f"{self.task}/{name}: {before}->{after} but reasons sum to {sum(removed.values())}")
        removed_rows, _ = listed(removed_at, "reason")
        changed_rows, n_changed = listed(changed, "change")
        self.steps.append(FilterStep(name, before, after, dict(removed), removed_rows, changed_rows, n_changed))

    def check_label_shares(
        self, name: str, before: Iterable[object], after: Iterable[object], tolerance: float = LABEL_SHARE_TOLERANCE
    ) -> bool:
        """Record the label shares around step ``name`` (its last occurrence); a step that moves any
        label's share by more than ``tolerance`` points is flagged there and in the notes. True if flagged."""
        step = next(step for step in reversed(self.steps) if step.name == name)
        shares_before, shares_after = label_shares(before), label_shares(after)
        shift = share_shift(shares_before, shares_after)
        flagged = shift > tolerance
        step.label_shares = {
            "before": _rounded(shares_before),
            "after": _rounded(shares_after),
            "max_shift_points": round(shift, 2),
            "tolerance_points": tolerance,
            "flagged": flagged,
        }
        if flagged:
            self.note(
                f"step {name!r} moved a label share by {shift:.1f} points (more than {tolerance:g}): "
                f"{_rounded(shares_before)} -> {_rounded(shares_after)}"
            )
        return flagged

    def note(self, text: str) -> None:
        """Record something done to the data that is not a removal (a repair, a kept duplicate)."""
        self.notes.append(text)

    def to_dict(self) -> dict:
        """The filters.json layout of docs/data-contract.md: steps as {filter, before, after, removed,
        removed_rows: {count, first}, changed_rows: {count, first}} (+ label_shares where checked)."""
        steps = []
        for step in self.steps:
            entry = {
                "filter": step.name,
                "before": step.before,
                "after": step.after,
                "removed": dict(step.removed),
                "removed_rows": {"count": step.before - step.after, "first": list(step.removed_rows)},
                "changed_rows": {"count": step.n_changed, "first": list(step.changed_rows)},
            }
            if step.label_shares is not None:
                entry["label_shares"] = step.label_shares
            steps.append(entry)
        return {"task": self.task, "steps": steps, "notes": list(self.notes)}


def _rounded(shares: Mapping[str, float]) -> dict[str, float]:
    return {label: round(share, 2) for label, share in shares.items()}


@dataclass(frozen=True)
class AdapterInput:
    """What an adapter receives: the task's name, its raw files by logical name, and its options.

    ``scoring_mode`` is the task's configured mode (None when the caller does not say), for adapters
    whose item layout depends on it (e.g. WinoWhat: ``partial`` or ``mc``).
    """

    task: str
    files: Mapping[str, Path]
    options: Mapping[str, object]
    seed: int
    scoring_mode: str | None = None

    def file(self, key: str) -> Path:
        try:
            return Path(self.files[key])
        except KeyError:
            raise KeyError(f"task {self.task!r}: no raw file {key!r} declared (have {sorted(self.files)})") from None


Adapter = Callable[[AdapterInput, FilterReport], Iterable[Item]]
_ADAPTERS: dict[str, Adapter] = {}
#: the adapter modules, and packages every module of which is one (searched with pkgutil);
#: benchval.jobs.reruns counts them as code dependencies of whatever imports this module
IMPORTS_EVERY_MODULE_OF = ("benchval.tasks.commonsense", "benchval.tasks.downstream")


def register(name: str) -> Callable[[Adapter], Adapter]:
    """Decorator: make an adapter available to config under ``name``.

    The decorated function's module registers itself: every adapter module (``commonsense`` and
    every module of the ``downstream`` package) is imported before an adapter is looked up
    (:func:`import_adapter_modules`), so adding a task means a catalogue entry and one adapter
    module, nothing else."""

    def decorate(adapter: Adapter) -> Adapter:
        if name in _ADAPTERS:
            raise ValueError(f"adapter {name!r} registered twice")
        _ADAPTERS[name] = adapter
        return adapter

    return decorate


def import_adapter_modules() -> None:
    """Import :data:`IMPORTS_EVERY_MODULE_OF` (a module imported before is not run again)."""
    for name in IMPORTS_EVERY_MODULE_OF:
        module = importlib.import_module(name)
        for found in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{name}."):
            importlib.import_module(found.name)


def get_adapter(name: str) -> Adapter:
    if name not in _ADAPTERS:
        import_adapter_modules()
    try:
        return _ADAPTERS[name]
    except KeyError:
        raise KeyError(f"unknown task adapter {name!r}; known: {sorted(_ADAPTERS)}") from None


def known_adapters() -> list[str]:
    import_adapter_modules()
    return sorted(_ADAPTERS)
