"""Multi-answer annotation (paper section 3.2.3): keep the causes that every annotator lists.

Each annotator gives one file (CSV with a header, or JSON Lines) of rows ``question_id, cause``: one
row per plausible cause they found for a question, beyond or including the generated answer. The
merged answer set of a question is its template answer followed by every cause listed by *all*
annotators (compared after case-folding, collapsing whitespace and dropping a final full stop),
without repeating the template answer. With no annotation files, the template answer is the single
answer. The paper used two annotators; more are accepted and must all agree.
"""

from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from benchval.commonwhy.errors import CommonWhyDataError

COLUMNS = ("question_id", "cause")


def normalise_cause(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip(".").strip().casefold()


def _rows(path: Path) -> list[tuple[int, dict]]:
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        rows = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                try:
                    rows.append((number, json.loads(line)))
                except json.JSONDecodeError as error:
                    raise CommonWhyDataError(path, number, f"not JSON: {error}") from error
        return rows
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise CommonWhyDataError(path, 1, f"missing columns {missing} (need {list(COLUMNS)})")
        return [(number, row) for number, row in enumerate(reader, start=2)]


def read_annotations(path: Path | str) -> dict[str, list[str]]:
    """question_id -> causes (original wording, first spelling kept) for one annotator's file."""
    path = Path(path)
    causes: dict[str, dict[str, str]] = defaultdict(dict)
    for number, row in _rows(path):
        question_id, cause = str(row.get("question_id") or "").strip(), str(row.get("cause") or "").strip()
        if not question_id or not cause:
            raise CommonWhyDataError(path, number, "empty question_id or cause")
        causes[question_id].setdefault(normalise_cause(cause), cause)
    return {qid: list(found.values()) for qid, found in causes.items()}


@dataclass
class MergeReport:
    annotators: int = 0
    questions: int = 0
    questions_annotated_by_all: int = 0
    causes_listed: int = 0
    causes_agreed: int = 0
    questions_with_extra_answers: int = 0
    unknown_question_ids: dict[str, int] = field(default_factory=dict)


def merge_answers(
    template_answers: dict[str, str], annotator_files: list[Path | str]
) -> tuple[dict[str, list[str]], MergeReport]:
    """question_id -> answers (template first, then causes every annotator listed)."""
    report = MergeReport(annotators=len(annotator_files), questions=len(template_answers))
    answers = {qid: [answer] for qid, answer in template_answers.items()}
    if not annotator_files:
        return answers, report
    if len(annotator_files) < 2:
        raise ValueError("multi-answer merge needs at least two annotator files (agreement is the rule)")
    per_annotator = [read_annotations(path) for path in annotator_files]
    for path, found in zip(annotator_files, per_annotator):
        unknown = set(found) - set(template_answers)
        if unknown:
            report.unknown_question_ids[str(path)] = len(unknown)
        report.causes_listed += sum(len(c) for c in found.values())
    for qid, template in template_answers.items():
        if not all(qid in found for found in per_annotator):
            continue
        report.questions_annotated_by_all += 1
        first = {normalise_cause(c): c for c in per_annotator[0][qid]}
        agreed = set(first)
        for found in per_annotator[1:]:
            agreed &= {normalise_cause(c) for c in found[qid]}
        extra = [first[key] for key in first if key in agreed and key != normalise_cause(template)]
        report.causes_agreed += len(agreed)
        if extra:
            answers[qid] = [template, *extra]
            report.questions_with_extra_answers += 1
    return answers, report
