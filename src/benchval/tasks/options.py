"""The adapter options of a task (``tasks.<task>.options`` in the catalogue), read and checked the
same way by every adapter: an unknown key or a value outside its allowed set is an error naming the
task and key (a typo must not silently disable a filter)."""

from __future__ import annotations

from typing import Any, Sequence

from benchval.tasks.base import AdapterInput

REQUIRED = ...


def check_options(inp: AdapterInput, known: Sequence[str]) -> None:
    """Unknown option keys are a KeyError listing the known ones."""
    unknown = sorted(set(inp.options) - set(known))
    if unknown:
        raise KeyError(f"task {inp.task!r}: unknown option(s) {unknown}; known: {sorted(known)}")


def option(inp: AdapterInput, key: str, default: Any = REQUIRED) -> Any:
    """An adapter option; a missing option without a default is a KeyError naming task and key."""
    if key in inp.options:
        return inp.options[key]
    if default is REQUIRED:
        raise KeyError(f"task {inp.task!r}: option {key!r} is required")
    return default


def choice(inp: AdapterInput, key: str, allowed: Sequence[str], default: str) -> str:
    """A text option that must be one of ``allowed``; anything else is a KeyError naming task and key."""
    value = str(option(inp, key, default))
    if value not in allowed:
        raise KeyError(f"task {inp.task!r}: option {key!r} must be one of {list(allowed)}, got {value!r}")
    return value
