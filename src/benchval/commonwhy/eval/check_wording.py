"""How the check set words its answers: from a reference, a rule or KG facts (docs/commonwhy-eval.md, "Judge
check"). The kinds of pair, the templates, and the ways of breaking a causal link with the reference's words."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

POSITIVE_KINDS = (
    "reference",
    "reordered",
    "rule_grounded",
    "kg_reworded",
    "reworded_link",
    "valid_alternative_cause",
)
NEGATIVE_KINDS = ("other_rule_same_entity", "wrong_fact", "broken_link", "restated_question", "evasive")
#: the ways broken_link answers break the reference's causal link with the reference's own words, taken in turn
BROKEN_LINKS = ("reversed", "negated", "inverted_comparison", "swapped_entity")
_OPPOSITES = {
    "before": "after",
    "after": "before",
    "greater": "less",
    "less": "greater",
    "more": "fewer",
    "fewer": "more",
    "older": "younger",
    "younger": "older",
    "higher": "lower",
    "lower": "higher",
    "larger": "smaller",
    "smaller": "larger",
}
CHECK_COLUMNS = [
    "pair_id",
    "item",
    "family",
    "source",
    "kind",
    "template",
    "origin",
    "expected",
    "question",
    "reference",
    "references",
    "answer",
    "note",
]
_CLAUSE = re.compile(r",?\s+(?:and|while|whereas|but)\s+", re.IGNORECASE)
_BECAUSE = re.compile(r"^\s*because\s+", re.IGNORECASE)
_RULE = re.compile(r"^\s*if\s+(?:an?\s+)?(?:[a-z]+\s+)?([A-Z])\s+(.+?),\s*then\s+(.+?)\.?\s*$", re.IGNORECASE)
_WORDS = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# words that carry no content of their own: an answer made of these and the question's words restates it
FILLER = frozenset(
    "a an the of to in on at for by with from as is are was were be been being has have had do does did "
    "not no n't never cannot can can't could couldn't would wouldn't should shouldn't will won't must "
    "may might because since so that this it its he she his her they their them him who which what why "
    "there then than also only just very reason due able unable fact case why".split()
)
RULE_TEMPLATES = (
    "Because {anchor} {cause}.",
    "The reason is that {anchor} {cause}.",
    "It is due to the fact that {anchor} {cause}.",
)
KG_TEMPLATES = (
    "{value} is the {property} of {subject}.",
    "{subject}'s {property} is {value}.",
    "{subject} has {value} as {property}.",
)


# --- wording helpers -------------------------------------------------------------------------------


def _contains(text: str, phrase: str) -> bool:
    return bool(phrase) and re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text) is not None


def _sentence(text: str) -> str:
    text = text.strip(" .")
    return text[:1].upper() + text[1:] + "." if text else ""


def content_words(text: str) -> set[str]:
    """Porter stems of the lower-cased words outside FILLER ("died" ~ "die", "attended" ~ "attend")."""
    from nltk.stem.porter import PorterStemmer

    stem = PorterStemmer().stem
    return {stem(w.lower()) for w in _WORDS.findall(text) if w.lower() not in FILLER}


def question_family(question: str, labels: Sequence[str]) -> str:
    """The question's skeleton: anchor labels, capitalised words (but the first) and numbers blanked."""
    text = question
    for label in sorted((lab for lab in labels if lab), key=len, reverse=True):
        text = text.replace(label, "X")
    words = text.split()
    blanked = [w if i == 0 or not (w[:1].isupper() or w[:1].isdigit()) else "X" for i, w in enumerate(words)]
    return re.sub(r"X(?:\s+X)+", "X", " ".join(blanked)).lower()


def restate_question(question: str, anchor: str | None) -> str:
    """The question as an answer: "Why couldn't A have X?" -> "Because A couldn't have X."."""
    body = re.sub(r"^\s*why\s+", "", question.strip(), flags=re.IGNORECASE).rstrip(" ?")
    if anchor:
        match = re.match(r"^(\S+)\s+" + re.escape(anchor) + r"\b(.*)$", body)
        if match:
            return f"Because {anchor} {match.group(1)}{match.group(2)}."
    return f"Because {body}."


def restates(answer: str, question: str) -> bool:
    """The answer adds nothing to the question: it has content words and each is one of the question's."""
    words = content_words(answer)
    return bool(words) and words <= content_words(question)


def clauses(reference: str) -> list[str]:
    return [c.strip(" .") for c in _CLAUSE.split(_BECAUSE.sub("", reference.strip())) if c.strip(" .")]


def reordered(reference: str) -> str | None:
    """The reference's clauses, last first, joined by "and" ("Because A, while B." -> "B, and A.")."""
    parts = clauses(reference)
    if len(parts) < 2:
        return None
    return _sentence(", and ".join(parts[::-1]))


def rule_cause(rule: str) -> str | None:
    """The antecedent of "If <var> <cause>, then ..." with only that variable (None otherwise)."""
    match = _RULE.match(rule or "")
    if not match:
        return None
    variable, cause = match.group(1), match.group(2)
    if re.search(r"\b(?!" + variable + r"\b)[A-Z]\b", cause):
        return None  # another variable the question does not ground
    return cause


def rule_grounded(rule: str, anchor: str, template: int) -> str | None:
    """The rule's cause grounded on the anchor, worded by RULE_TEMPLATES[template]."""
    cause = rule_cause(rule)
    if not cause or not anchor:
        return None
    variable = _RULE.match(rule).group(1)
    cause = re.sub(r"\b" + variable + r"\b", anchor, cause)
    return RULE_TEMPLATES[template % len(RULE_TEMPLATES)].format(anchor=anchor, cause=cause)


def kg_reworded(reference: str, facts: Sequence[Mapping], anchor: str, template: int) -> str | None:
    """The facts worded by KG_TEMPLATES[template] plus the reference's clauses that do not name the anchor."""
    pattern = KG_TEMPLATES[template % len(KG_TEMPLATES)]
    stated = [
        pattern.format(
            subject=f["subject_label"] or f["subject"],
            property=f["property_label"] or f["property"],
            value=f["value_label"] or f["value"],
        )
        for f in facts
        if f.get("value_label") or f.get("value")
    ]
    if not stated:
        return None
    rest = [_sentence(c) for c in clauses(reference) if not _contains(c, anchor)]
    return " ".join(stated + rest)


def second_template(reference: str, facts: Sequence[Mapping], anchor: str) -> str | None:
    """The facts as "<subject>'s <property> is <value>." plus the reference's clauses without the anchor."""
    return kg_reworded(reference, facts, anchor, 1)


def swap_phrase(text: str, old: str, new: str) -> str | None:
    """`text` with every whole-word `old` replaced by `new` (None when `old` does not occur)."""
    if not _contains(text, old) or old == new:
        return None
    return re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", new, text)


# wordings of one cause that the rules spell differently ("practices Islam", "believed in Islam", "has the religion
# or worldview of Islam"; "a bacterium", "a bacteria"; "a computer software", "a software"), read as one


_RELATIVE = re.compile(r",\s*(?:which|who|whose|as)\b.*$", re.IGNORECASE)


def core_clause(clause: str) -> str:
    """A clause without its trailing relative clause ("X is a bacteria, which cannot ..." -> "X is a bacteria")."""
    return _RELATIVE.sub("", clause).strip(" .")


def _cause_and_effect(reference: str, question: str, anchor: str | None) -> tuple[str, str] | None:
    """(the reference's first cause clause, the question's event as a statement), None when either is empty."""
    parts = clauses(reference)
    effect = restate_question(question, anchor).removeprefix("Because ").rstrip(".")
    return (parts[0], effect) if parts and effect else None


def broken_link(reference: str, question: str, anchor: str | None, way: str) -> str | None:
    """The reference's words with the causal link broken in `way` (:data:`BROKEN_LINKS`); None when it
    does not apply."""
    parts = _cause_and_effect(reference, question, anchor)
    if parts is None:
        return None
    cause, effect = parts
    if way == "reversed":  # the event given as the cause of the cause
        return _sentence(f"{core_clause(cause)} because {effect}")
    if way == "negated":
        return f"Because it is not true that {cause}."
    if way == "inverted_comparison":
        pattern = r"\b(" + "|".join(_OPPOSITES) + r")\b"
        if not re.search(pattern, reference):
            return None
        return re.sub(pattern, lambda m: _OPPOSITES[m.group(1)], reference, count=1)
    if way == "swapped_entity" and anchor:
        others = [s for s in _names(reference) if s != anchor and anchor not in s and s not in anchor]
        if not others or not _contains(reference, anchor):
            return None
        other = others[0]
        text = reference.replace(anchor, "\0").replace(other, anchor).replace("\0", other)
        return text if text != reference else None
    return None


def _names(text: str) -> list[str]:
    """Runs of capitalised words after the first word (entity names), longest first."""
    words = text.split()[1:]
    runs, current = [], []
    for word in words + [""]:
        clean = word.strip(".,;:")
        if clean[:1].isupper() and clean.lower() not in FILLER:
            current.append(clean)
        else:
            if current:
                runs.append(" ".join(current))
            current = []
    return sorted(set(runs), key=lambda r: (-len(r), r))
