"""Multi-answer merge (causes every annotator lists) and the per-rule head/long-tail halves."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from benchval.commonwhy.annotation import merge_answers
from benchval.commonwhy.errors import CommonWhyDataError
from benchval.commonwhy.splits import assign_splits

TEMPLATES = {"r1-Q1": "Because Alice is too young.", "r1-Q2": "Because Bob is not a citizen."}


def test_only_causes_listed_by_both_annotators_are_added(tmp_path):
    first = tmp_path / "ann1.csv"
    first.write_text(
        "question_id,cause\n"
        "r1-Q1,Because Alice is too young.\n"
        "r1-Q1,Because Alice holds diplomatic status.\n"
        "r1-Q1,Because Alice was abroad.\n"
        "r1-Q2,Because Bob was abroad.\n",
        encoding="utf-8",
    )
    second = tmp_path / "ann2.jsonl"
    second.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"question_id": "r1-Q1", "cause": "because alice holds  diplomatic status"},
                {"question_id": "r1-Q1", "cause": "Because Alice is too young"},
                {"question_id": "r9-Q9", "cause": "Because of something."},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    answers, report = merge_answers(TEMPLATES, [first, second])
    assert answers == {
        "r1-Q1": ["Because Alice is too young.", "Because Alice holds diplomatic status."],
        "r1-Q2": ["Because Bob is not a citizen."],
    }  # r1-Q2 only annotated by one annotator
    assert report.questions_annotated_by_all == 1 and report.questions_with_extra_answers == 1
    assert report.unknown_question_ids == {str(second): 1}


def test_without_annotations_the_template_is_the_single_answer():
    answers, report = merge_answers(TEMPLATES, [])
    assert answers == {k: [v] for k, v in TEMPLATES.items()} and report.annotators == 0


def test_one_annotator_is_refused_and_bad_files_name_the_line(tmp_path):
    bad = tmp_path / "ann.csv"
    bad.write_text("question_id,cause\nr1-Q1,\n", encoding="utf-8")
    with pytest.raises(ValueError, match="at least two"):
        merge_answers(TEMPLATES, [bad])
    with pytest.raises(CommonWhyDataError, match=r"ann\.csv, line 2: empty question_id or cause"):
        merge_answers(TEMPLATES, [bad, bad])


def test_splits_are_equal_halves_within_each_rule():
    table = pd.DataFrame(
        {
            "rule_id": ["a"] * 5 + ["b"] * 2,
            "question_id": ["a1", "a2", "a3", "a4", "a5", "b1", "b2"],
            "popularity": [10, 50, 30, 30, 5, 7, 9],
        }
    )
    split = assign_splits(table)
    assert split.tolist() == ["longtail", "head", "head", "middle", "longtail", "longtail", "head"]
    # ties broken by question id: a3 (30) ranks before a4 (30)
    head, tail = table[split == "head"], table[split == "longtail"]
    for rule in ("a", "b"):
        assert head[head.rule_id == rule].popularity.min() >= tail[tail.rule_id == rule].popularity.max()
