"""Helpers shared by the downstream and control adapters (the readers are
:mod:`benchval.tasks.rawfiles`, the option checks :mod:`benchval.tasks.options`).

Option shuffling with a per-item seeded order, answer statements, the text-quality ("unnatural") rule and the
near-duplicate step.
Every filter goes through :class:`benchval.tasks.base.FilterReport`, so its before/after
counts and reasons are recorded. (Hand-decision exclusion lists are applied by
``benchval.tasks.prepare`` after the adapter.)
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable, Mapping, Sequence

from benchval.tasks.base import FilterReport
from benchval.tasks.downstream.near_duplicates import near_duplicate_of


def item_rng(seed: int, item_id: str) -> random.Random:
    """A random generator for one item: the same for a given seed and id, whatever else is read."""
    return random.Random(f"{seed}/{item_id}")


def shuffle_options(options: Sequence[str], label: int, seed: int, item_id: str) -> tuple[list[str], int]:
    """Options in a seeded per-item order and the new index of the correct one."""
    order = list(range(len(options)))
    item_rng(seed, item_id).shuffle(order)
    return [options[i] for i in order], order.index(label)


def answer_statements(labels: Sequence[str], template: str, words: Mapping[str, str] | None = None) -> list[str]:
    """One answer statement per label: ``template`` with ``{label}`` replaced by the label's word.

    ``words`` maps a label to the word used in the statement (default: the label itself). The
    statements are returned in ``labels`` order and must be distinct (they are the options of a
    ``calibrated`` task, whose priors are keyed by their text).
    """
    words = dict(words or {})
    unknown = sorted(set(words) - set(labels))
    if unknown:
        raise ValueError(f"label_words name labels that are not in the label set: {unknown}")
    if "{label}" not in template:
        raise ValueError(f"answer template {template!r} has no '{{label}}' placeholder")
    statements = [template.replace("{label}", words.get(label, label)) for label in labels]
    if len(set(statements)) != len(statements):
        raise ValueError(f"answer statements are not distinct: {statements}")
    return statements


def option_text(text: str) -> str:
    """An option as appended to the context: one leading space, no other outer whitespace."""
    return " " + " ".join(text.split())


def tidy_passage(text: str) -> str:
    """Strip each line and collapse runs of blank lines to one paragraph break (the EPITOME passages)."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def unnatural_reason(text: str, patterns: Mapping[str, str]) -> str | None:
    """The name of the first configured pattern (name -> regex) that matches ``text``, else None."""
    for name, pattern in patterns.items():
        if re.search(pattern, text):
            return f"unnatural:{name}"
    return None


def drop_near_duplicates(
    records: list, text_of: Callable[[Any], str], threshold: float | None, seed: int, report: FilterReport
) -> list:
    """The shared near-duplicate step (see near_duplicates.py); ``threshold`` None skips it."""
    if threshold is None:
        return records
    duplicate_of = near_duplicate_of([text_of(record) for record in records], float(threshold), seed)
    marks = {id(record): dup for record, dup in zip(records, duplicate_of)}
    return report.apply("near_duplicates", records, lambda r: None if marks[id(r)] is None else "near_duplicate")
