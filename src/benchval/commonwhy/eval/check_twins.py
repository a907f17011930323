"""Minimal pairs: answers worded as the answers of the other label are, differing in the causal fact.

A check set whose negatives carry giveaways (a "because" inside the sentence, "it is not true that", a rule
template used only for positives) is passed by a matcher that reads the giveaways (issue 45: balanced accuracy
0.982 with no model). Each wording here is used for both labels:

- ``because_inside``: "E because C" with C the reference's cause is a Yes (:func:`link_twins`); "C because E"
  (``broken_link`` ``reversed``) a No;
- ``not_true_that``: "it is not true that X died after 1774" where X died before 1774 is a Yes; "it is not true
  that X died before 1774" (``broken_link`` ``negated``) a No;
- ``rule_template_k``: the rule templates word the question's own cause (Yes), an alternative cause that
  explains the event (Yes), the cause with its comparison inverted (No), the cause stated of another anchor of
  the rule (No) and another rule's cause that explains nothing here (No) (:func:`grounded_twins`).

Every pair carries its ``template`` (the wording that made it), so that a reader of wordings can be trained on
some templates and tested on others (:mod:`.artifact_canaries`).
"""

from __future__ import annotations

import re

from benchval.commonwhy.eval.check_wording import (
    _OPPOSITES,
    _cause_and_effect,
    _sentence,
    core_clause,
    rule_grounded,
)

_COMPARISON = re.compile(r"\b(" + "|".join(_OPPOSITES) + r")\b")


def inverted(text: str) -> str | None:
    """`text` with its first comparison word swapped (before/after, greater/less, ...), None without one."""
    if not _COMPARISON.search(text):
        return None
    return _COMPARISON.sub(lambda m: _OPPOSITES[m.group(1)], text, count=1)


def link_twins(reference: str, question: str, anchor: str | None) -> list[tuple[str, str, str]]:
    """Positives worded as the broken links are: (answer, template, note)."""
    parts = _cause_and_effect(reference, question, anchor)
    if parts is None:
        return []
    cause, effect = parts
    out = [(_sentence(f"{effect} because {core_clause(cause)}"), "because_inside", "the event because the cause")]
    flipped = inverted(core_clause(cause))
    if flipped:
        out.append((f"Because it is not true that {flipped}.", "not_true_that", "the inverted cause, negated"))
    return out


def grounded_twins(
    rule: str, anchor: str | None, other_anchor: str | None, template: int
) -> list[tuple[str, bool, str, str, str]]:
    """Negatives in the rule template of the question's own cause: (kind, expected, answer, template, note)."""
    name = f"rule_template_{template}"
    grounded = rule_grounded(rule, anchor, template) if anchor else None
    out = []
    if grounded and inverted(grounded):
        out.append(("broken_link", False, inverted(grounded), name, "the rule's cause, comparison inverted"))
    stated_of_other = rule_grounded(rule, other_anchor, template) if other_anchor else None
    if stated_of_other:
        out.append(("wrong_fact", False, stated_of_other, name, f"the rule's cause stated of {other_anchor}"))
    return out
