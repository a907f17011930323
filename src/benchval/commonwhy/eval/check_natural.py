"""Natural answers in the check set: the models' own answers to the check questions, labelled blind by a reader of
docs/commonwhy-judge-guidelines.md (never by a rule or a judge), joined to this run's answers by their text.

The labels file (``commonwhy_eval.judge_check.natural_labels``) has one row per labelled answer: ``question_id``
(the answers table's ``id``), ``system``, ``answer_sha256`` (SHA-256 of the answer's UTF-8 text, as the answers
table holds it), ``label`` (``yes`` / ``no`` / ``not_checkable``) and ``why``. A label is used only where this
run's answer of that system to that question has that digest: a labelled answer that another model, another draw
or changed generation settings did not give again is reported with why, never relabelled. ``not_checkable`` is
never counted as either label (left out, reported).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from benchval.plumbing.folders import REPO_ROOT

LABEL_COLUMNS = ["question_id", "system", "answer_sha256", "label", "why"]
#: the labeller's label -> the pair's expected verdict (None: not checkable, no pair)
LABELS = {"yes": True, "no": False, "not_checkable": None}
KIND, ORIGIN = "natural_answer", "blind_label"


def answer_digest(answer: str) -> str:
    """The digest the labels file keys an answer by."""
    return hashlib.sha256(answer.encode("utf-8")).hexdigest()


def labels_file(path: str | Path) -> Path:
    """Where the labels file ``path`` (``judge_check.natural_labels``) is: a relative path in the working directory,
    else in the repository (config/commonwhy/ ships there), as a prompt file is found
    (benchval.generation.prompts.PromptTemplate.from_file)."""
    path = Path(path)
    if path.is_file() or path.is_absolute():
        return path
    return REPO_ROOT / path


def read_natural_labels(path: str | Path) -> pd.DataFrame:
    """The labels file, checked: its columns, a known label on every row, one label per answer. A bad row stops
    the run naming the file and its line."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in LABEL_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: natural answer labels need the columns {LABEL_COLUMNS}; missing {missing}")
    for position, row in enumerate(table.itertuples(index=False)):
        line = position + 2  # the header is line 1
        if row.label not in LABELS:
            raise ValueError(f"{path}, line {line}: label {row.label!r} is none of {sorted(LABELS)}")
        if len(row.answer_sha256) != 64 or any(c not in "0123456789abcdef" for c in row.answer_sha256):
            raise ValueError(f"{path}, line {line}: answer_sha256 {row.answer_sha256!r} is not a SHA-256 hex digest")
    duplicated = table.duplicated(["question_id", "system", "answer_sha256"], keep="first")
    if duplicated.any():
        line = int(duplicated.to_numpy().argmax()) + 2
        raise ValueError(f"{path}, line {line}: a second label for the same question, system and answer")
    return table[LABEL_COLUMNS]


class NaturalLabels:
    """The blind labels by (question id, system, answer digest), and which of them this run's answers matched."""

    def __init__(self, labels: pd.DataFrame | None):
        labels = labels if labels is not None else pd.DataFrame(columns=LABEL_COLUMNS)
        self.labels = labels.reset_index(drop=True)
        self.by_key = {
            (row.question_id, row.system, row.answer_sha256): (row.label, row.why)
            for row in self.labels.itertuples(index=False)
        }
        self.matched: set[tuple[str, str, str]] = set()

    def label(self, question_id: str, system: str, answer: str) -> tuple[str, str] | None:
        """(label, why) of this answer, or None when it was not labelled."""
        key = (question_id, system, answer_digest(answer))
        if key not in self.by_key:
            return None
        self.matched.add(key)
        return self.by_key[key]

    def report(self, answered: Mapping[str, Mapping[str, str]], drawn: set[str]) -> dict:
        """Labels matched, used (yes/no), not checkable, and the unmatched ones per reason. `answered`: system ->
        question id -> this run's answer; `drawn`: this run's check question ids."""
        reasons: Counter = Counter()
        for question_id, system, digest in self.by_key:
            if (question_id, system, digest) not in self.matched:
                reasons[_why_unmatched(question_id, system, answered, drawn)] += 1
        used = Counter(self.by_key[key][0] for key in self.matched)
        return {
            "labels": len(self.by_key),
            "matched": len(self.matched),
            "used": {"yes": used["yes"], "no": used["no"]},
            "not_checkable": used["not_checkable"],
            "unmatched": dict(sorted(reasons.items())),
        }


def _why_unmatched(question_id: str, system: str, answered: Mapping[str, Mapping[str, str]], drawn: set[str]) -> str:
    if not question_id.startswith("chk-"):
        return "an answer to an evaluation question, not a check question (the check set reads only check answers)"
    if question_id not in drawn:
        return "its question is not among this run's check questions"
    if system not in answered:
        return "its system does not answer the check questions in this run (judge_check.answer_models)"
    if question_id not in answered[system]:
        return "its system did not answer that question in this run (judge_check.answer_limit)"
    return "this run's answer has other text (another model version or generation setting)"
