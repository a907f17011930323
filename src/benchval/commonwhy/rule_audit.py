"""The gold audited on every rule: what each rule's grounding query must test, read from the rule's own text.

:mod:`.gold_audit` checks the date and quantity bounds of 58 rules and drops the items of the rules it flags.
This audit reads every one of the 231 rules of ``inference_rule_entities.json`` and **flags, never drops** (a
flagged rule's items may still be true; the check set leaves out only the rules whose premise cannot cause
their conclusion, :func:`premise_cannot_cause`). Reasons, each a test that can fail:

- ``anchor_not_required_human``: the antecedent is about a person, and the query neither asks for a human
  (``wd:Q5``) nor tests a property only people have (date of birth or death, citizenship, occupation, ...):
  a medical-condition query (P1050 alone) returns study articles ("Chitinases and ... in Human Asthma");
- ``premise_cannot_cause``: the premise names a property that cannot cause the conclusion (being born in a place
  does not make one die there: cw158);
- ``condition_not_tested``: the antecedent states a condition whose property the query never tests ("earned a
  master's degree" without P512 academic degree; "was born in Chile" tested by citizenship, not P19);
- ``query_shared``: the same query grounds rules with different conditions (cw183-188: one query, physicians
  of South Korea, for "medical doctor", "lawyer", "earned a PhD", ...): at most one of them can be its rule;
- the reasons of :func:`.gold_audit.audit_rule` (``property``, ``constant``, ``constant_stricter``,
  ``direction``) for the date and quantity bounds.

A rule none of whose tests applies is listed as not checked, with why (:data:`NOT_CHECKED_WHY`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pandas as pd

from benchval.commonwhy.gold_audit import antecedent, audit_rule

#: properties only people have (in the grounding queries): a query that tests one asks for a person
PERSON_PROPERTIES = {"P569", "P570", "P27", "P106", "P19", "P20", "P21", "P140", "P1412", "P39", "P69", "P512"}
#: a condition stated in the antecedent -> the properties of which the query must test one
CONDITIONS = (
    (re.compile(r"\bhas the occupation of\b", re.I), {"P106"}, "occupation"),
    (re.compile(r"\bearned an? (?:phd|master|bachelor|doctorate|degree)", re.I), {"P512"}, "academic degree"),
    (re.compile(r"\b(?:enrolled at|studied at|graduated from|educated at)\b", re.I), {"P69"}, "educated at"),
    (re.compile(r"\bwas born in\b", re.I), {"P19"}, "place of birth"),
    (re.compile(r"\bdied in\b", re.I), {"P20"}, "place of death"),
    (re.compile(r"\bcitizen of\b", re.I), {"P27"}, "citizenship"),
    (re.compile(r"\b(?:practices|believed in|believes in|religion or worldview)\b", re.I), {"P140"}, "religion"),
    (re.compile(r"\b(?:can speak|speaks)\b", re.I), {"P1412", "P103"}, "language spoken"),
    (re.compile(r"\bperson (?:[A-Z] )?has (?!the occupation)", re.I), {"P1050"}, "medical condition"),
)
#: premise -> conclusion pairs where the premise cannot be the conclusion's cause
CANNOT_CAUSE = ((re.compile(r"\bborn in\b", re.I), re.compile(r"\bdied in\b", re.I), "birth place -> death place"),)
NOT_CHECKED_WHY = "its antecedent names no condition, bound or type the audit reads"
_PERSON = re.compile(r"\bperson\b|\bgirl\b|\bboy\b|\bman\b|\bwoman\b", re.I)
_CONSEQUENT = re.compile(r",\s*(?:then|it would)\b(.*)$", re.I | re.S)


def _properties(sparql: str) -> set[str]:
    return set(re.findall(r"\b(?:p|ps|wdt|psv):(P\d+)\b", sparql))


def premise_cannot_cause(rule: str) -> str | None:
    """Why the rule's premise cannot cause its conclusion (e.g. "birth place -> death place"), or None."""
    premise, conclusion = antecedent(rule) or "", _CONSEQUENT.search(rule or "")
    for cause, effect, why in CANNOT_CAUSE:
        if cause.search(premise) and conclusion and effect.search(conclusion.group(1)):
            return why
    return None


def _type_reason(premise: str, sparql: str) -> str | None:
    if not _PERSON.search(premise):
        return None
    if "wd:Q5" in re.sub(r"wd:Q5\d", "", sparql) or _properties(sparql) & PERSON_PROPERTIES:
        return None
    return f"anchor_not_required_human: the query tests only {sorted(_properties(sparql) - {'P279'})}"


def _condition_reasons(premise: str, sparql: str) -> list[str]:
    tested = _properties(sparql)
    return [
        f"condition_not_tested: {name} ({'/'.join(sorted(needed))}) not in the query"
        for pattern, needed, name in CONDITIONS
        if pattern.search(premise) and not needed & tested
    ]


def _direction_aware(reasons: list[str]) -> list[str]:
    """gold_audit calls a bound "stricter" by its year alone; a filter that goes the other way ("born after 1999"
    grounded with "< 1999", cw002) implies nothing of the template's bound: ``constant``, not ``constant_stricter``.
    (Fixed here, not in gold_audit, whose reasons decide which items every answering rule sees.)"""
    if not any(r.startswith("direction:") for r in reasons):
        return reasons
    return [
        "constant: " + r.removeprefix("constant_stricter: ").split(" (stricter than")[0] + " (the other direction)"
        if r.startswith("constant_stricter:")
        else r
        for r in reasons
    ]


def audit_one_rule(rule: str, sparql: str) -> tuple[list[str], bool]:
    """(reasons, checked): every flag of one rule, and whether any test applied to it."""
    premise = antecedent(rule) or ""
    bounds = audit_rule(rule, sparql)  # None: no date or quantity bound
    reasons = _direction_aware(list(bounds or []))
    applied = bounds is not None or bool(_PERSON.search(premise))
    applied |= any(p.search(premise) for p, _, _ in CONDITIONS) or bool(CANNOT_CAUSE[0][0].search(premise))
    for reason in (_type_reason(premise, sparql), premise_cannot_cause(rule)):
        if reason:
            reasons.append(reason if ":" in reason else f"premise_cannot_cause: {reason}")
    return reasons + _condition_reasons(premise, sparql), applied


def conditions_not_tested(rule_entities: Path | str) -> dict[str, str]:
    """Rule text -> why its query never tests a condition its antecedent states (``condition_not_tested``), for
    every such rule of ``inference_rule_entities.json``: an item of such a rule states a cause that the KG never
    established for its anchor ("earned a master's degree" grounded on physicians, cw186)."""
    data = json.loads(Path(rule_entities).read_text(encoding="utf-8"))
    untested = {rule: _condition_reasons(antecedent(rule) or "", entry["sparql"]) for rule, entry in data.items()}
    return {rule: "; ".join(reasons) for rule, reasons in untested.items() if reasons}


class GroundingQueries:
    """The rules' grounding queries (``inference_rule_entities.json``), read for the judge's check set: which other
    rule's cause about a question's anchor no labelling rule may use (:meth:`why_no_label`)."""

    def __init__(self, rule_entities: Path | str):
        data = json.loads(Path(rule_entities).read_text(encoding="utf-8"))
        self.query = {rule: _normalised_query(entry["sparql"]) for rule, entry in data.items()}
        self.untested = conditions_not_tested(rule_entities)

    def why_no_label(self, rule: str, other_rule: str) -> str | None:
        """Why another rule's cause (`other_rule`) labels no pair of a question of `rule`, or None:

        - its query never tests the condition it states: the cause was never established for the anchor, so
          whether it explains the event decides nothing ("earned a master's degree", cw186);
        - the two rules share one query with different conditions (``query_shared``): rules written over one set
          of anchors state causes of one theme that may entail each other ("has the occupation of medical doctor,
          which requires completing medical school" for "why did X pursue higher education?", cw183 and cw188),
          an entailment no labelling rule reads."""
        if other_rule in self.untested:
            return f"its rule's query never tests its cause ({self.untested[other_rule]})"
        shared = self.query.get(rule) is not None and self.query.get(rule) == self.query.get(other_rule)
        if shared and (antecedent(rule) or rule) != (antecedent(other_rule) or other_rule):
            return "query_shared: its rule and the question's are grounded by one query with different conditions"
        return None


def _normalised_query(sparql: str) -> str:
    return re.sub(r"\s+", " ", sparql).strip()


def audit_every_rule(rule_entities: Path | str) -> pd.DataFrame:
    """One row per rule: rule_id, rule, n_entities, checked, flagged, reasons (`` | ``-joined, each
    ``<name>: <detail>``), reason_names (``;``-joined), why_not_checked."""
    data = json.loads(Path(rule_entities).read_text(encoding="utf-8"))
    shared = Counter(_normalised_query(entry["sparql"]) for entry in data.values())
    by_query: dict[str, set[str]] = {}
    for rule, entry in data.items():
        by_query.setdefault(_normalised_query(entry["sparql"]), set()).add(antecedent(rule) or rule)
    rows = []
    for number, (rule, entry) in enumerate(data.items(), start=1):
        reasons, checked = audit_one_rule(rule, entry["sparql"])
        query = _normalised_query(entry["sparql"])
        if shared[query] > 1 and len(by_query[query]) > 1:
            reasons.append(f"query_shared: one query grounds {shared[query]} rules with different conditions")
            checked = True
        rows.append(
            {
                "rule_id": f"cw{number:03d}",
                "rule": rule,
                "n_entities": len(entry.get("entities") or []),
                "checked": checked,
                "flagged": bool(reasons),
                "reasons": " | ".join(reasons),
                "reason_names": ";".join(sorted({r.split(":", 1)[0] for r in reasons})),
                "why_not_checked": "" if checked else NOT_CHECKED_WHY,
            }
        )
    return pd.DataFrame(rows)


def reason_counts(audit: pd.DataFrame) -> dict:
    """Rules checked, flagged and per reason (a rule counts once per reason)."""
    names = audit["reason_names"].map(lambda text: [name for name in text.split(";") if name])
    return {
        "rules": len(audit),
        "checked": int(audit["checked"].sum()),
        "flagged": int(audit["flagged"].sum()),
        "per_reason": {str(k): int(v) for k, v in names.explode().dropna().value_counts().items()},
        "entities_of_flagged_rules": int(audit.loc[audit["flagged"], "n_entities"].sum()),
    }
