"""Whether one cause explains another item's event (docs/commonwhy-judge-guidelines.md, rule 5): the labelling
rules of ``valid_alternative_cause`` and ``other_rule_same_entity``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchval.commonwhy.eval.check_wording import _contains, clauses, content_words, core_clause, rule_cause

CAUSE_SYNONYMS = (
    (r"\b(?:practices|practiced|believed in|believes in|ha[sd] (?:the )?religion or worldview of)\b", "religion"),
    (r"\bbacterium\b", "bacteria"),
    (r"\bcomputer software\b", "software"),
)


def normalise_cause(text: str) -> str:
    """`text` with the wordings of :data:`CAUSE_SYNONYMS` made one."""
    for pattern, replacement in CAUSE_SYNONYMS:
        text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)
    return text


#: why an alternative cause explains the event when :func:`may_explain` says so
MAY_EXPLAIN = "a cause of the same kind whose bound implies the question's"

_BOUND = re.compile(r"\b(before|after)\s+(?:[\w ]{0,20}?\s)?(\d{3,4})\b", re.IGNORECASE)


_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")


def event_year(question: str) -> int | None:
    """The year the question's event is dated by ("Why couldn't X have attended the 1999 Games?"), when it
    names exactly one; None otherwise."""
    years = set(_YEAR.findall(question or ""))
    return int(years.pop()) if len(years) == 1 else None


def may_explain(other_rule: str, rule: str, event: int | None = None) -> bool | None:
    """Whether another rule's cause also explains this rule's event: the causes share a skeleton (numbers blanked,
    "died before N") and, for a bound ("before N", "after N"), the other's bound implies the event's. The rule's
    own bound implies its event (died before 1970 -> could not use a 1970s calculator), so a bound that implies the
    rule's explains (True); a looser one ("died before 1971") explains when it implies the event's `event` year
    (True or False), and cannot be labelled without it (None: left out). Skeletons alike without a bound to
    compare: True; unlike: False."""
    a, b = rule_cause(other_rule), rule_cause(rule)
    blank = lambda s: re.sub(r"\d+", "N", normalise_cause(s).lower()).strip()  # noqa: E731
    if not (a and b) or blank(a) != blank(b):
        return False
    bound_a, bound_b = _BOUND.findall(a), _BOUND.findall(b)
    if len(bound_a) != 1 or len(bound_b) != 1 or bound_a[0][0].lower() != bound_b[0][0].lower():
        return True
    (direction, year_a), (_, year_b) = bound_a[0], bound_b[0]
    before = direction.lower() == "before"
    implies = (lambda x, y: x <= y) if before else (lambda x, y: x >= y)  # noqa: E731
    if implies(int(year_a), int(year_b)):
        return True
    return None if event is None else implies(int(year_a), event)


def shares_cause(answer: str, references: Sequence[str], anchor: str, threshold: float = 0.5) -> bool:
    """A clause of `answer` naming the anchor shares >= threshold of its content words (Jaccard; the anchor's
    own words and trailing relative clauses left out) and all its numbers with one of the references' clauses
    naming the anchor ("died before 1900" is not "died before 1850")."""
    name = content_words(anchor)
    words = lambda c: content_words(normalise_cause(core_clause(c))) - name  # noqa: E731
    mine = [words(c) for c in clauses(answer) if _contains(c, anchor)]
    theirs = [words(c) for r in references for c in clauses(r) if _contains(c, anchor)]
    numbers = lambda words: {w for w in words if w.isdigit()}  # noqa: E731
    return any(
        a and b and numbers(a) == numbers(b) and len(a & b) / len(a | b) >= threshold for a in mine for b in theirs
    )
