"""TimeDial (Qin et al., 2021): temporal commonsense in dialogue, event axis, mode ``mc``.

Each dialog has one "<MASK>" for a temporal span, two correct spans (``correct1`` = the
original, ``correct2`` = annotator-added) and two distractors. An item's options are
``use_correct`` (default ``correct1``) plus the two distractors, in a seeded per-item order;
accuracy is the only metric (as in the paper, macro-F1 is not reported for TimeDial).

Filters, in order:

* ``four_options``: dialogs whose ``correct2`` is the literal "none" (only 1 correct + 2
  incorrect options; excluded by the TimeDial paper's 4-option setting) are dropped.
* ``unusable_rows``: no or several "<MASK>" (``mask_count``), or an empty span
  (``empty_option``), or duplicate options (``duplicate_options``).
* ``mask_sentence_final`` (paper: "TimeDial contexts were shortened to place MASK
  sentence-finally where possible"): the context is cut right before the mask, and everything
  after the sentence that holds the mask (later sentences of that turn and later turns) is
  dropped. That is possible when at most ``max_words_after_mask`` words stand between the mask
  and the end of its sentence (default 0: the mask already ends its sentence, only punctuation
  follows); those words are then also dropped. Other dialogs are dropped with reason
  ``mask_not_sentence_final``.

The dialog turns keep their speaker tags ("A: ...", a missing space after the colon is added)
and, with ``detokenize`` (default true), the source's tokenised spacing is undone for
punctuation (" ." -> ".", " n't" -> "n't", ...).
"""

from __future__ import annotations

import re

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import check_options, option, option_text, read_json, shuffle_options

MASK = "<MASK>"
FIELDS = ("id", "conversation", "correct1", "correct2", "incorrect1", "incorrect2")
SENTENCE_END = re.compile(r"[.?!]")


def detokenize(text: str) -> str:
    """Undo the source's whitespace before punctuation and clitics."""
    text = re.sub(r"\s+([.,?!;:%)])", r"\1", text)
    text = re.sub(r"\s+(n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", text)
    text = re.sub(r"([($])\s+", r"\1", text)
    return " ".join(text.split())


def speaker_turn(turn: str) -> str:
    """'A:We need' -> 'A: We need'."""
    return re.sub(r"^([AB]):\s*", r"\1: ", turn.strip())


def words_after_mask(turn: str) -> int:
    """Words between the mask and the end of its sentence (punctuation marks are not words)."""
    rest = SENTENCE_END.split(turn.split(MASK, 1)[1], maxsplit=1)[0]
    return len(re.findall(r"\w+", rest))


def context_before_mask(turns: list[str], tidy: bool) -> str:
    index = next(i for i, turn in enumerate(turns) if MASK in turn)
    kept = [speaker_turn(turn) for turn in turns[:index]] + [speaker_turn(turns[index]).split(MASK, 1)[0]]
    if tidy:
        kept = [detokenize(turn) for turn in kept]
    return "\n".join(turn.rstrip() for turn in kept).rstrip()


def record_problem(record: dict) -> str | None:
    if sum(str(turn).count(MASK) for turn in record["conversation"]) != 1:
        return "mask_count"
    spans = [str(record[key]).strip() for key in ("correct1", "correct2", "incorrect1", "incorrect2")]
    if any(not span for span in spans):
        return "empty_option"
    if len({span.lower() for span in spans}) != 4:
        return "duplicate_options"
    return None


def validated(path, document) -> list[tuple[int, dict]]:
    if not isinstance(document, list):
        raise TaskDataError(path, None, "expected a JSON list of dialogs")
    rows = []
    for position, record in enumerate(document, start=1):
        missing = [key for key in FIELDS if not isinstance(record, dict) or key not in record]
        if missing:
            raise TaskDataError(path, f"dialog {position}", f"missing field(s) {missing}")
        if not isinstance(record["conversation"], list) or not all(isinstance(t, str) for t in record["conversation"]):
            where = f"dialog {position} (id {record['id']})"
            raise TaskDataError(path, where, "conversation must be a list of strings")
        rows.append((position, record))
    return rows


@register("timedial")
def timedial(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["use_correct", "max_words_after_mask", "detokenize", "shuffle_options"])
    use_correct = option(inp, "use_correct", "correct1")
    if use_correct not in ("correct1", "correct2"):
        raise KeyError(f"task {inp.task!r}: use_correct must be correct1 or correct2, got {use_correct!r}")
    max_after, tidy = int(option(inp, "max_words_after_mask", 0)), bool(option(inp, "detokenize", True))
    path = inp.file("test")
    rows = validated(path, read_json(path))
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("four_options", rows,
                        lambda row: "correct2_none" if str(row[1]["correct2"]).strip().lower() == "none" else None)
    rows = report.apply("unusable_rows", rows, lambda row: record_problem(row[1]))
    mask_turn = lambda record: next(turn for turn in record["conversation"] if MASK in turn)  # noqa: E731
    rows = report.apply("mask_sentence_final", rows, lambda row: "mask_not_sentence_final"
                        if words_after_mask(mask_turn(row[1])) > max_after else None)
    items = []
    for position, record in rows:
        item_id = f"timedial-{record['id']}"
        spans = [record[use_correct], record["incorrect1"], record["incorrect2"]]
        options = [option_text(detokenize(s) if tidy else s) for s in spans]
        label = 0
        if option(inp, "shuffle_options", True):
            options, label = shuffle_options(options, 0, inp.seed, item_id)
        items.append(Item(id=item_id, context=context_before_mask(record["conversation"], tidy),
                          options=options, label=label, source_row=position))
    return items
