"""The gold audit (benchval.commonwhy.gold_audit): rules whose query does not match their template, items whose
comparison contradicts their numbers; flagged items are counted, left out of the sample by config and never
enter the judge's check set."""

from __future__ import annotations

import pandas as pd
import pytest

from benchval.commonwhy.gold_audit import audit_item, audit_rule, exclude_flagged, reason_name

# cw008 as published: the query is the previous rule's (death before 2010), the template says before 1774
CW008_RULE = "If a person A died before 1774, then person A could not have read The Sorrows of Young Werther."
CW008_SPARQL = """SELECT DISTINCT ?item WHERE {
      ?item p:P570 ?statement_0.
      ?statement_0 psv:P570 ?statementValue_0.
      ?statementValue_0 wikibase:timeValue ?P570_0.
      FILTER(?P570_0 < "+2010-00-00T00:00:00Z"^^xsd:dateTime)
      ?item p:P27 ?statement1.
      ?statement1 (ps:P27/(wdt:P279*)) wd:Q211. }"""


def test_cw008_is_flagged_for_its_constant_and_its_matching_twin_is_not():
    reasons = audit_rule(CW008_RULE, CW008_SPARQL)
    assert [reason_name(r) for r in reasons] == ["constant"]
    assert "1774" in reasons[0] and "2010" in reasons[0]
    # the same query with the template's own year passes: the check is not "flag every date rule"
    assert audit_rule(CW008_RULE, CW008_SPARQL.replace("2010", "1774")) == []


def test_a_stricter_bound_property_and_direction_are_each_named():
    stricter = audit_rule(CW008_RULE, CW008_SPARQL.replace("2010", "1700"))
    assert [reason_name(r) for r in stricter] == ["constant_stricter"]
    born = CW008_RULE.replace("died before", "was born before")
    assert [reason_name(r) for r in audit_rule(born, CW008_SPARQL.replace("2010", "1774"))] == ["property"]
    inverted = CW008_SPARQL.replace("2010", "1774").replace("?P570_0 <", "?P570_0 >")
    assert [reason_name(r) for r in audit_rule(CW008_RULE, inverted)] == ["direction"]
    # a rule of a kind the audit does not read is not checked (None), never passed as matching
    assert audit_rule("If person A practices Islam, then A likely observes Ramadan.", "SELECT ?item {}") is None


QUANTITY = """SELECT DISTINCT ?item WHERE { BIND("70"^^xsd:decimal AS ?userQuantity)
      ?item p:P2048 ?statement0.
      ?statement0 (psn:P2048/wikibase:quantityAmount) ?statementQuantity.
      FILTER(?statementQuantity < ?coherentUserQuantity) }"""


def test_a_quantity_rule_compared_the_other_way_is_flagged():
    rule = "If the height of building A is greater than 70 metre, then the top of building A would be visible if you submerge it in Gulf of Suez."  # noqa: E501
    assert [reason_name(r) for r in audit_rule(rule, QUANTITY)] == ["direction"]
    assert audit_rule(rule, QUANTITY.replace("statementQuantity <", "statementQuantity >")) == []


def test_an_inverted_comparison_contradicts_its_own_numbers():
    question = "Why would the top of Eiffel Tower be visible if you submerge it in Kosterfjorden?"
    wrong = "Because the height of Eiffel Tower is less than 247 metre, which is the depth of Kosterfjorden."
    right = "Because the height of Eiffel Tower is greater than 247 metre, which is the depth of Kosterfjorden."
    assert [reason_name(r) for r in audit_item(question, wrong)] == ["comparison_contradicts_numbers"]
    assert audit_item(question, right) == []
    hidden = "Why would the top of Eiffel Tower not be visible if submerged in Kosterfjorden?"
    assert audit_item(hidden, wrong) == [] and audit_item(hidden, right)
    fits = "Why can't town Abc fit in Estany Blanc?"
    assert audit_item(
        fits, "Because the area of town Abc is smaller than 7 hectares, which is the area of Estany Blanc."
    )
    assert not audit_item(
        fits, "Because the area of town Abc is greater than 7 hectares, which is the area of Estany Blanc."
    )


def _table():
    return pd.DataFrame(
        {
            "item_id": ["a", "b", "c"],
            "audit_reasons": [["constant: x"], ["constant_stricter: y"], []],
        }
    )


def test_exclusion_follows_the_configured_reasons_and_reports_them():
    kept, removed = exclude_flagged(_table(), ["constant", "constant_stricter"], "item_id")
    assert kept["item_id"].tolist() == ["c"] and removed["removed_ids"] == ["a", "b"]
    assert removed["removed_per_reason"] == {"constant": 1, "constant_stricter": 1}
    kept, removed = exclude_flagged(_table(), ["constant"], "item_id")
    assert kept["item_id"].tolist() == ["b", "c"]
    with pytest.raises(ValueError, match="unknown gold-audit reasons"):
        exclude_flagged(_table(), ["typo"], "item_id")
    with pytest.raises(ValueError, match="audit_reasons"):
        exclude_flagged(_table().drop(columns="audit_reasons"), ["constant"], "item_id")


def test_the_published_files_are_audited(tmp_path):
    """On the mirror's raw files (skipped without them): cw008's items are flagged, and so are the inverted
    building comparisons; the counts are in the report."""
    from benchval.commonwhy.dataset import load_published
    from benchval.plumbing.folders import REPO_ROOT

    raw = (REPO_ROOT / "../shared/data/raw/commonwhy").resolve()
    if not (raw / "Head.json").exists():
        pytest.skip(f"no raw CommonWhy files at {raw}")
    table, report = load_published(raw)
    cw008 = table[table["rule_id"] == "cw008"]
    assert len(cw008) and cw008["audit_reasons"].map(lambda rs: [reason_name(r) for r in rs] == ["constant"]).all()
    audit = report["gold_audit"]
    assert audit["items_flagged_per_reason"]["comparison_contradicts_numbers"] > 0
    assert audit["items_flagged"] == int(table["audit_reasons"].map(bool).sum())
