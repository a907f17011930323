"""The task adapter interface and the filter report every adapter fills in.

An adapter turns one dataset's raw files into items (see docs/data-contract.md, section 1).
Adapters are registered by name with :func:`register`; config/config.yaml names the adapter of
each task under ``tasks.<task>.adapter`` and passes it ``options`` (filter thresholds, column
choices) and the resolved raw file paths.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

SCORING_MODES = ("mc", "partial", "minimal_pair", "calibrated")
ROLES = ("cs_original", "cs_reworked", "cs_variant", "downstream", "control")
AXES = ("social", "pragmatic", "event")


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


@dataclass
class FilterStep:
    name: str
    before: int
    after: int
    removed: dict[str, int]


@dataclass
class FilterReport:
    """Ordered record of every filter applied to a task: counts before/after and per reason."""

    task: str
    steps: list[FilterStep] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def apply(self, name: str, items: list, reason_of: Callable[[object], str | None]) -> list:
        """Keep the items for which ``reason_of`` returns None; count the others by reason."""
        kept, removed = [], Counter()
        for item in items:
            reason = reason_of(item)
            if reason is None:
                kept.append(item)
            else:
                removed[reason] += 1
        self.record(name, len(items), len(kept), removed)
        return kept

    def record(self, name: str, before: int, after: int, removed: Mapping[str, int]) -> None:
        if before - after != sum(removed.values()):
            raise ValueError(f"{self.task}/{name}: {before}->{after} but reasons sum to {sum(removed.values())}")
        self.steps.append(FilterStep(name, before, after, dict(removed)))

    def note(self, text: str) -> None:
        """Record something done to the data that is not a removal (a repair, a kept duplicate)."""
        self.notes.append(text)

    def to_dict(self) -> dict:
        """The filters.json layout of docs/data-contract.md: steps as {filter, before, after, removed}."""
        steps = [
            {"filter": step.name, "before": step.before, "after": step.after, "removed": dict(step.removed)}
            for step in self.steps
        ]
        return {"task": self.task, "steps": steps, "notes": list(self.notes)}


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


def register(name: str) -> Callable[[Adapter], Adapter]:
    """Decorator: make an adapter available to config under ``name``."""

    def decorate(adapter: Adapter) -> Adapter:
        if name in _ADAPTERS:
            raise ValueError(f"adapter {name!r} registered twice")
        _ADAPTERS[name] = adapter
        return adapter

    return decorate


def get_adapter(name: str) -> Adapter:
    from benchval.tasks import registry  # noqa: F401  (imports every adapter module)

    try:
        return _ADAPTERS[name]
    except KeyError:
        raise KeyError(f"unknown task adapter {name!r}; known: {sorted(_ADAPTERS)}") from None


def known_adapters() -> list[str]:
    from benchval.tasks import registry  # noqa: F401

    return sorted(_ADAPTERS)
