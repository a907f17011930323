"""EPITOME Indirect Requests (Jones, Trott & Bergen, 2024), mode ``mc``.

Unfiltered, as in the paper (appendix B), except that rows that cannot form an item are
reported and left out (never dropped silently): the passage, the speaker's critical utterance and
the question ("Do you think he is making a request?") form the context; the options are `` Yes`` /
`` No``. Reasons: ``missing_critical_utterance``, ``missing_critical_question``, ``missing_passage``.

A label that is none of the options is a :class:`TaskDataError`, not a drop.
"""

from __future__ import annotations

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import option_text, tidy_passage
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import read_csv

IR_COLUMNS = ("item", "passage", "speaker_knowledge", "knowledge_cue", "critical_q", "critical_a", "critical_utterance")


def indirect_request_problem(row) -> str | None:
    """Why an Indirect Requests row cannot form an item, or None."""
    if not row.text("passage"):
        return "missing_passage"
    if not row.text("critical_utterance"):
        return "missing_critical_utterance"
    if not row.text("critical_q"):
        return "missing_critical_question"
    return None


def indirect_request_item(row, template: str, answers: list[str]) -> Item:
    answer = row.text("critical_a")
    if answer not in answers:
        raise TaskDataError(row.path, row.line, f"critical_a {answer!r} is not one of {answers}")
    context = (
        template.replace("{passage}", tidy_passage(row.text("passage")))
        .replace("{utterance}", row.text("critical_utterance"))
        .replace("{question}", row.text("critical_q"))
    )
    parts = [row.text(key) for key in ("item", "speaker_knowledge", "knowledge_cue")]
    return Item(
        id="epitome_ir-" + "-".join(parts),
        context=context.rstrip(),
        options=[option_text(text) for text in answers],
        label=answers.index(answer),
        source_row=row.line,
    )


@register("epitome_indirect_request")
def epitome_indirect_request(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["context_template", "answers"])
    template = option(inp, "context_template", "{passage}\n\n{utterance}\n\nQuestion: {question}\nAnswer:")
    answers = [str(answer) for answer in option(inp, "answers", ["Yes", "No"])]
    rows = list(read_csv(inp.file("indirect_request"), required=IR_COLUMNS))
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("unusable_rows", rows, indirect_request_problem)
    return [indirect_request_item(row, template, answers) for row in rows]
