"""TimeDial (Qin et al., 2021): temporal commonsense in dialogue, event axis, mode ``mc``.

Each dialog has one "<MASK>" for a temporal span, two correct spans (``correct1`` = the
original, ``correct2`` = annotator-added) and two distractors. An item's options are
``use_correct`` (default ``correct1``) and the two distractors, always in that order: the correct
option is option 0 in every item (paper: "the correct answer always occupies the same position";
log-likelihood scoring scores each option on its own, so the position cannot favour it, and
accuracy is the only metric: macro-F1 over positions would be uninformative).

Filters, in order:

* ``four_options``: dialogs whose ``correct2`` is the literal "none" (only 1 correct + 2
  incorrect options; excluded by the TimeDial paper's 4-option setting) are dropped.
* ``unusable_rows``: no or several "<MASK>" (``mask_count``), or an empty span
  (``empty_option``), or duplicate options (``duplicate_options``).
* ``mask_sentence_final`` (paper: "TimeDial contexts were shortened to place MASK
  sentence-finally where possible"): the context is the dialog up to the mask; every later
  sentence and turn is cut. The sentence holding the mask ends at the first ``.``, ``?`` or ``!``
  after it. Where words stand between the mask and that end, ``mid_sentence_masks`` decides:
  ``suffix`` (default) keeps the dialog and gives the item those words (without the closing
  mark) as ``target``, a suffix shared by all options: each option is scored in place, as
  ``option + suffix`` after the context (docs/scoring.md); ``drop`` removes the dialog (reason
  ``mask_not_sentence_final``). The step lists the dialogs it gave a suffix as changed rows.
  Where only punctuation follows the mask, the item has no suffix and the mark is cut.

The dialog turns keep their speaker tags ("A: ...", a missing space after the colon is added)
and, with ``detokenize`` (default true), the source's tokenised spacing is undone for
punctuation (" ." -> ".", " n't" -> "n't", ...).
"""

from __future__ import annotations

import re

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register, source
from benchval.tasks.downstream.common import option_text
from benchval.tasks.options import check_options, choice, option
from benchval.tasks.rawfiles import read_json

MASK = "<MASK>"
FIELDS = ("id", "conversation", "correct1", "correct2", "incorrect1", "incorrect2")
SENTENCE_END = re.compile(r"[.?!]")
MID_SENTENCE = ("suffix", "drop")


def detokenize(text: str) -> str:
    """Undo the source's whitespace before punctuation and clitics."""
    text = re.sub(r"\s+([.,?!;:%)])", r"\1", text)
    text = re.sub(r"\s+(n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", text)
    text = re.sub(r"([($])\s+", r"\1", text)
    return " ".join(text.split())


def speaker_turn(turn: str) -> str:
    """'A:We need' -> 'A: We need'."""
    return re.sub(r"^([AB]):\s*", r"\1: ", turn.strip())


def rest_of_sentence(turn: str) -> str:
    """The text between the mask and the end of its sentence (the closing mark excluded)."""
    return SENTENCE_END.split(turn.split(MASK, 1)[1], maxsplit=1)[0]


def words_after_mask(turn: str) -> int:
    """Words between the mask and the end of its sentence (punctuation marks are not words)."""
    return len(re.findall(r"\w+", rest_of_sentence(turn)))


def mask_suffix(turn: str, tidy: bool) -> str | None:
    """The rest of the mask's sentence as the text that follows an option ("" -> None): one leading
    space before a word, none before punctuation (" , so we" -> ", so we" when ``tidy``)."""
    if not words_after_mask(turn):
        return None
    rest = rest_of_sentence(turn)
    text = detokenize("_" + rest)[1:] if tidy else " ".join(rest.split())
    if not tidy and rest[:1].isspace():
        text = " " + text
    return text.rstrip()


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


def mask_turn(record: dict) -> str:
    return next(turn for turn in record["conversation"] if MASK in turn)


def dialog_source(path, position: int, record: dict) -> dict:
    return source(path, id=record["id"], position=position)


@register("timedial")
def timedial(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["use_correct", "mid_sentence_masks", "detokenize"])
    use_correct = choice(inp, "use_correct", ["correct1", "correct2"], "correct1")
    mid_sentence = choice(inp, "mid_sentence_masks", MID_SENTENCE, "suffix")
    tidy = bool(option(inp, "detokenize", True))
    path = inp.file("test")
    rows = validated(path, read_json(path))
    where = lambda row: dialog_source(path, *row)  # noqa: E731
    report.record("read", len(rows), len(rows), {})
    rows = report.apply(
        "four_options",
        rows,
        source_of=where,
        reason_of=lambda row: "correct2_none" if str(row[1]["correct2"]).strip().lower() == "none" else None,
    )
    rows = report.apply("unusable_rows", rows, lambda row: record_problem(row[1]), source_of=where)
    suffixes = {row[0]: mask_suffix(mask_turn(row[1]), tidy) for row in rows}
    if mid_sentence == "drop":
        rows = report.apply(
            "mask_sentence_final",
            rows,
            source_of=where,
            reason_of=lambda row: "mask_not_sentence_final" if suffixes[row[0]] else None,
        )
    else:
        changed = [
            (where(row), f"rest of the mask's sentence scored as a shared suffix: {suffixes[row[0]]!r}")
            for row in rows
            if suffixes[row[0]]
        ]
        report.record("mask_sentence_final", len(rows), len(rows), {}, changed=changed)
    items = []
    for position, record in rows:
        spans = [record[use_correct], record["incorrect1"], record["incorrect2"]]
        items.append(
            Item(
                id=f"timedial-{record['id']}",
                context=context_before_mask(record["conversation"], tidy),
                options=[option_text(detokenize(s) if tidy else s) for s in spans],
                label=0,
                source_row=position,
                target=suffixes[position],
            )
        )
    return items
