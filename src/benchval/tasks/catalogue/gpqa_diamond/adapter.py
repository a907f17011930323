"""GPQA Diamond (Rein et al., 2023): control task, mode ``mc``.

The CSV is read from its password-protected zip (legacy ZipCrypto, which Python's zipfile
reads; the password is the one the GPQA authors publish, config option ``zip_password``).
Each question's four answers ("Correct Answer", "Incorrect Answer 1..3") are put in a seeded
per-item order (the source always lists the correct answer first) and scored by their own
log-likelihood after ``context_template`` (``{question}`` is replaced).

Filter ``duplicate_answers``: a question whose four answers are not distinct (after whitespace
normalisation) is dropped; in the staged file one question lists the same distractor twice.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from benchval.tasks.base import AdapterInput, FilterReport, Item, TaskDataError, register
from benchval.tasks.downstream.common import option_text, shuffle_options
from benchval.tasks.options import check_options, option
from benchval.tasks.rawfiles import read_csv

ANSWERS = ("Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3")
COLUMNS = ("Question", "Record ID") + ANSWERS


def read_member(path, member: str, password: str) -> str:
    """The decoded text of ``member`` from the zip at ``path``."""
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.read(member, pwd=password.encode("utf-8")).decode("utf-8")
    except KeyError:
        raise TaskDataError(path, member, "member not in the zip archive") from None
    except NotImplementedError as error:  # e.g. AES encryption, which zipfile cannot decrypt
        raise TaskDataError(path, member, f"cannot decrypt with Python's zipfile: {error}") from None
    except (RuntimeError, zipfile.BadZipFile) as error:
        raise TaskDataError(path, member, f"cannot read (wrong password or damaged archive?): {error}") from None


def duplicate_answers(row) -> str | None:
    answers = [" ".join(row.text(column).split()) for column in ANSWERS]
    return "duplicate_answers" if len(set(answers)) != len(answers) else None


def gpqa_item(row, template: str, seed: int) -> Item:
    answers = [row.text(column) for column in ANSWERS]
    if not row.text("Question") or not all(answers):
        raise TaskDataError(row.path, row.line, "empty question or answer")
    item_id = f"gpqa-{row.text('Record ID')}"
    options, label = shuffle_options([option_text(answer) for answer in answers], 0, seed, item_id)
    context = template.replace("{question}", row.text("Question")).rstrip()
    return Item(id=item_id, context=context, options=options, label=label, source_row=row.line)


@register("gpqa")
def gpqa(inp: AdapterInput, report: FilterReport) -> list[Item]:
    check_options(inp, ["zip_member", "zip_password", "context_template"])
    path = inp.file("archive")
    member = option(inp, "zip_member", "dataset/gpqa_diamond.csv")
    text = read_member(path, member, str(option(inp, "zip_password")))
    template = option(inp, "context_template", "Question: {question}\nAnswer:")
    rows = list(read_csv(Path(f"{path}!{member}"), required=COLUMNS, text=text))
    report.record("read", len(rows), len(rows), {})
    rows = report.apply("duplicate_answers", rows, duplicate_answers)
    return [gpqa_item(row, template, inp.seed) for row in rows]
