"""The paper config as the authors ran it: their answer prompt (system message + bare question) and the sample."""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

from benchval.commonwhy.eval.questions import sample_composition, sample_questions, stratified_counts
from benchval.commonwhy.eval.steps.commonwhy_eval_answer import answer_messages
from benchval.commonwhy.eval.settings import resolve
from benchval.generation.prompts import plain_text
from benchval.plumbing.folders import REPO_ROOT

SYSTEM = "Answer the question concisely and factually."


class Chat:
    chat = True

    def __init__(self, system_role=True):
        self.system_role = system_role

    def render(self, messages):
        if not self.system_role and messages[0]["role"] == "system":
            raise ValueError("System role not supported")  # as Gemma's chat template raises
        return "|".join(m["content"] for m in messages)


class Base:
    chat = False


def test_authors_prompt_is_a_system_message_or_plain_text_before_the_question():
    messages, how = answer_messages(Chat(), ["Why?"], SYSTEM)
    assert messages == [[{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Why?"}]]
    assert how == "chat system message"
    messages, how = answer_messages(Base(), ["Why?"], SYSTEM)
    assert plain_text(messages[0]) == f"{SYSTEM}\n\nWhy?" and how.startswith("plain text before the question")
    messages, how = answer_messages(Chat(system_role=False), ["Why?"], SYSTEM)
    assert messages == [[{"role": "user", "content": f"{SYSTEM}\n\nWhy?"}]] and "no system role" in how
    assert answer_messages(Chat(), ["Why?"], None) == ([[{"role": "user", "content": "Why?"}]], "none")


def test_paper_config_uses_the_authors_prompt_and_a_seeded_sample():
    section = yaml.safe_load((REPO_ROOT / "config/paper_commonwhy.yaml").read_text())["commonwhy_eval"]
    settings = resolve(section)
    assert settings["generation"]["system"] == SYSTEM
    assert (REPO_ROOT / settings["generation"]["prompt"]).read_text().strip() == "$question"
    # the audited gold applies to the paper's setting too (every flagged reason left out by default)
    assert settings["sample"] == {
        "method": "seeded",
        "stratify_by": None,
        "published": 1000,
        "constructed": 0,
        "exclude_audited": ["property", "constant", "constant_stricter", "direction", "comparison_contradicts_numbers"],
    }


def test_stratified_counts_are_proportional_by_largest_remainder():
    sizes = pd.Series({"A": 50, "B": 30, "C": 20})
    assert stratified_counts(sizes, 10).to_dict() == {"A": 5, "B": 3, "C": 2}
    assert stratified_counts(pd.Series({"A": 2, "B": 1}), 2).to_dict() == {"A": 1, "B": 1}  # 1.33/0.67
    assert stratified_counts(pd.Series({"A": 5, "B": 5, "C": 5}), 4).sum() == 4


def _published(n=60):
    cats = ["TemporalReasoning"] * (n // 2) + ["Geographical"] * (n // 3) + ["Political"] * (n - n // 2 - n // 3)
    rows = []
    for split in ("head", "longtail"):
        for i, cat in enumerate(cats):
            rows.append(
                {
                    "item_id": f"{split}-{i:03d}",
                    "split": split,
                    "question": f"Why {split} {i}?",
                    "answers": [f"Because {i}."],
                    "rule": "r",
                    "reasoning_category": cat,
                    "popularity": 1,
                    "anchor_qids": [],
                }
            )
    return pd.DataFrame(rows)


def test_stratified_sample_keeps_each_categorys_share_and_is_seeded():
    sample, report = sample_questions(
        _published(), None, {"published": 12}, seed=4, method="seeded", stratify_by="reasoning_category"
    )
    head = sample[sample["split"] == "head"]["reasoning_category"].value_counts().to_dict()
    assert head == {"TemporalReasoning": 6, "Geographical": 4, "Political": 2}
    assert any("stratified by reasoning_category" in step["filter"] for step in report)
    again, _ = sample_questions(_published(), None, {"published": 12}, 4, "seeded", "reasoning_category")
    pd.testing.assert_frame_equal(sample, again)
    note = sample_composition(sample, "published")
    assert note.startswith("head (n=12): TemporalReasoning 6, Geographical 4, Political 2; longtail (n=12):")


def test_unknown_stratification_column_is_rejected_naming_the_key():
    with pytest.raises(ValueError, match="commonwhy_eval.sample.stratify_by"):
        resolve({"sample": {"stratify_by": "domain"}})
