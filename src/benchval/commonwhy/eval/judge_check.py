"""The judge check (docs/commonwhy-eval.md, "Judge check"), one concept per module:

- :mod:`.check_wording`: how the pairs' answers are worded (templates, kinds, broken links);
- :mod:`.check_causes`: whether another item's cause explains a question's event (labelling rule 5);
- :mod:`.check_items`: the items as one table and the seeded draw of the check questions;
- :mod:`.check_set`: the labelled pairs (:func:`~.check_set.build_check_set`);
- :mod:`.judge_gate`: the gate that reads a judge's verdicts on them;
- :mod:`.canaries` and :mod:`.artifact_canaries`: the judges that must fail the gate.

This module re-exports their public names for the callers that import them from here.
"""

from __future__ import annotations

from benchval.commonwhy.eval.check_causes import may_explain, normalise_cause, shares_cause
from benchval.commonwhy.eval.check_items import check_questions, draw_items, gold_audit_excluded
from benchval.commonwhy.eval.check_set import CheckSetBuilder, build_check_set, prepare_check
from benchval.commonwhy.eval.check_wording import (
    BROKEN_LINKS,
    CHECK_COLUMNS,
    FILLER,
    KG_TEMPLATES,
    NEGATIVE_KINDS,
    POSITIVE_KINDS,
    RULE_TEMPLATES,
    broken_link,
    clauses,
    content_words,
    kg_reworded,
    question_family,
    reordered,
    restate_question,
    restates,
    rule_cause,
    rule_grounded,
    second_template,
    swap_phrase,
)
from benchval.commonwhy.eval.judge_gate import (
    _fast_measures,
    gate_scores,
    judge_pairs,
    judge_validity,
    question_weights,
    score_check,
)

__all__ = [
    "BROKEN_LINKS",
    "CHECK_COLUMNS",
    "CheckSetBuilder",
    "FILLER",
    "KG_TEMPLATES",
    "NEGATIVE_KINDS",
    "POSITIVE_KINDS",
    "RULE_TEMPLATES",
    "_fast_measures",
    "broken_link",
    "build_check_set",
    "check_questions",
    "clauses",
    "content_words",
    "draw_items",
    "gate_scores",
    "gold_audit_excluded",
    "judge_pairs",
    "judge_validity",
    "kg_reworded",
    "may_explain",
    "normalise_cause",
    "prepare_check",
    "question_family",
    "question_weights",
    "reordered",
    "restate_question",
    "restates",
    "rule_cause",
    "rule_grounded",
    "score_check",
    "second_template",
    "shares_cause",
    "swap_phrase",
]
