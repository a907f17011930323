"""The gold audited on every rule (benchval.commonwhy.rule_audit): each reason flags its case, not its control."""

from __future__ import annotations

import json

from benchval.commonwhy.rule_audit import audit_every_rule, reason_counts

P1050 = "SELECT DISTINCT ?item WHERE { ?item p:P1050 ?s0. ?s0 (ps:P1050/(wdt:P279*)) wd:Q35869. } LIMIT 100"
PHYSICIANS = (
    "SELECT DISTINCT ?item WHERE { ?item p:P27 ?s0. ?s0 (ps:P27/(wdt:P279*)) wd:Q884. "
    "?item p:P106 ?s1. ?s1 (ps:P106/(wdt:P279*)) wd:Q39631. } LIMIT 100"
)
BORN_AFTER_WITH_DIED_BEFORE = (
    "SELECT DISTINCT ?item WHERE { ?item p:P570 ?st. ?st psv:P570 ?v. ?v wikibase:timeValue ?death. "
    'FILTER(?death < "+2002-06-25T00:00:00Z"^^xsd:dateTime) } LIMIT 100'
)
RULES = {
    # case and control of each reason
    "If person A has asthma, then person A suffers from a long-lasting medical condition.": P1050,
    "If person A has rosacea, then A sees a doctor.": P1050.replace("} LIMIT", "?item p:P27 ?c. } LIMIT"),
    "If person A was born in Concepción, then he died in the same administrative territorial entity as U.": (
        "SELECT DISTINCT ?item WHERE { ?item p:P19 ?s. ?s ps:P19 wd:Q1880. } LIMIT 100"
    ),
    "If person A died in Concepción, then he died in the same administrative territorial entity as U.": (
        "SELECT DISTINCT ?item WHERE { ?item p:P20 ?s. ?s ps:P20 wd:Q1880. } LIMIT 100"
    ),
    "If person A has the occupation of medical doctor, then person A completed medical school.": PHYSICIANS,
    "If person A earned a master’s degree, then person A completed undergraduate education.": PHYSICIANS,
    "If a person A was born after 1999, then person A could not have attended X.": BORN_AFTER_WITH_DIED_BEFORE,
    "If town A is in Iran, it would not be possible for an escapee from A to reach Y.": (
        "SELECT DISTINCT ?item WHERE { ?item p:P17 ?s. ?s ps:P17 wd:Q794. } LIMIT 100"
    ),
}


def _audit(tmp_path):
    path = tmp_path / "inference_rule_entities.json"
    path.write_text(
        json.dumps({rule: {"sparql": q, "entities": [{"qid": "Q1", "label": "x"}]} for rule, q in RULES.items()})
    )
    return audit_every_rule(path).set_index("rule_id")


def test_each_reason_flags_its_case_and_not_its_control(tmp_path):
    audit = _audit(tmp_path)
    names = audit["reason_names"]
    print(audit[["rule", "reasons"]].to_string())
    assert names["cw001"] == "anchor_not_required_human"  # P1050 alone: study titles come back
    assert names["cw002"] == ""  # the control: a citizenship asks for a person
    assert names["cw003"] == "premise_cannot_cause"  # cw158: born in a place -> died there
    assert names["cw004"] == ""
    assert names["cw005"] == "query_shared" and names["cw006"] == "condition_not_tested;query_shared"
    # cw002 of the raw file: "born after" grounded with "< 2002" on P570 is no stricter bound, it goes the other way
    assert names["cw007"] == "constant;direction;property"
    assert "(the other direction)" in audit.loc["cw007", "reasons"]


def test_every_rule_is_listed_checked_or_with_why_not(tmp_path):
    audit = _audit(tmp_path)
    assert len(audit) == len(RULES)
    assert not audit.loc["cw008", "checked"] and audit.loc["cw008", "why_not_checked"]
    assert audit.drop(index="cw008")["checked"].all()
    counts = reason_counts(audit.reset_index())
    assert counts["checked"] == 7 and counts["flagged"] == 5
    assert counts["per_reason"]["query_shared"] == 2
