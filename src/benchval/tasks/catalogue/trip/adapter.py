"""TRIP (Storks et al., 2021), HAR's curated story pairs: event/physical axis, mode ``mc``.

Each pair holds two five-sentence stories that differ in one sentence; one is physically
plausible (``pair_plausible_story``, 0-based). The context is ``context_prefix`` followed by the
sentences the two stories share at the start; each option is the rest of one story (its
differing sentence and the shared sentences after it), so the log-likelihood compares the
plausible and implausible continuations in the same context. The option order is the
source's (both positions occur as the correct one).

Filters, in order (paper: "near-duplicates and unnatural or unclear instances were removed"):

* ``unclear``: pairs whose implausible story has no annotated conflicting sentence pair
  (``no_conflict_annotation``), or whose stories do not differ in exactly one sentence
  (``not_one_sentence_apart``).
* ``unnatural``: a sentence that does not start with a capital letter or digit, or does not end
  in . ! ? or a closing quote (``malformed_sentence``), or text matching one of
  ``unnatural_patterns`` (name -> regex).
* ``near_duplicates``: the shared rule of near_duplicates.py on the text of both stories with
  ``near_duplicate_threshold``: TRIP reuses one plausible story in up to three pairs (one per
  implausible variant), which this collapses to one pair.

A plausible-story index that disagrees with the stories' own ``plausible`` flags is a
:class:`TaskDataError`.
"""

from __future__ import annotations

import re

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import drop_near_duplicates, unnatural_reason
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import Row, read_jsonl

WELL_FORMED = re.compile(r"^[A-Z0-9\"'].*[.!?][\"']?$")


def stories(row: Row) -> tuple[list[str], list[str], int]:
    """Both stories' sentences and the plausible index, validated."""
    pair = row.field("stories")
    label = row.field("pair_plausible_story")
    if not isinstance(pair, list) or len(pair) != 2:
        raise TaskDataError(row.path, row.line, "stories must be a list of two stories")
    sentences = []
    for story in pair:
        if not isinstance(story, dict) or not isinstance(story.get("sentences"), list) or not story["sentences"]:
            raise TaskDataError(row.path, row.line, "each story needs a non-empty 'sentences' list")
        sentences.append([" ".join(str(s).split()) for s in story["sentences"]])
    if label not in (0, 1) or [story.get("plausible") for story in pair] != [int(i == label) for i in (0, 1)]:
        raise TaskDataError(
            row.path, row.line, f"pair_plausible_story {label!r} disagrees with the stories' plausible flags"
        )
    return sentences[0], sentences[1], label


def unclear_reason(row: Row) -> str | None:
    first, second, label = stories(row)
    implausible = row.field("stories")[1 - label]
    if not implausible.get("confl_pairs"):
        return "no_conflict_annotation"
    if len(first) != len(second) or sum(a != b for a, b in zip(first, second)) != 1:
        return "not_one_sentence_apart"
    return None


def unnatural_story_reason(row: Row, patterns) -> str | None:
    first, second, _ = stories(row)
    if not all(WELL_FORMED.match(sentence) for sentence in first + second):
        return "malformed_sentence"
    return unnatural_reason(" ".join(first + second), patterns)


def pair_text(row: Row) -> str:
    first, second, _ = stories(row)
    return " ".join(first + second)


def trip_item(row: Row, prefix: str) -> Item:
    first, second, label = stories(row)
    shared = 0
    while shared < min(len(first), len(second)) and first[shared] == second[shared]:
        shared += 1
    context = " ".join([prefix.strip()] + first[:shared]).strip()
    if not context:
        raise TaskDataError(row.path, row.line, "empty context: set context_prefix or the stories share no start")
    return Item(
        id=f"trip-{row.text('example_id')}",
        context=context,
        options=[" " + " ".join(first[shared:]), " " + " ".join(second[shared:])],
        label=label,
        source_row=row.line,
    )


@register("trip")
def trip(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["files", "context_prefix", "unnatural_patterns", "near_duplicate_threshold"])
    rows = [row for key in option(inp, "files") for row in read_jsonl(inp.file(key))]
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("unclear", rows, unclear_reason)
    patterns = option(inp, "unnatural_patterns", {}) or {}
    rows = report.apply("unnatural", rows, lambda row: unnatural_story_reason(row, patterns))
    rows = drop_near_duplicates(rows, pair_text, option(inp, "near_duplicate_threshold", None), inp.seed, report)
    prefix = str(option(inp, "context_prefix", "Story:"))
    return [trip_item(row, prefix) for row in rows]
