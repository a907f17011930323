"""Supporting subgraph of a grounded question (paper section 3.1 (iii) and 3.2.2).

The published queries bind one anchor variable (``?item``) through statement and value nodes
(``?item p:P27 ?s . ?s ps:P27/wdt:P279* wd:Q211``); the facts that bind them are the anchor's
statements over the properties the query names. So the subgraph of a question is, for each anchor
entity, its non-deprecated statements for every property the rule's query references (P279 included
when used), each with its qualifiers when the source has any (LitWD1K has none; Wikidata does).
Facts are read through :meth:`KGSource.entity_facts`, so a local store and WDQS give the same shape.
"""

from __future__ import annotations

from benchval.commonwhy.grounding import GroundedQuestion
from benchval.commonwhy.kg.source import KGSource, Triple
from benchval.commonwhy.rules import LiftedRule
from benchval.commonwhy.wdqs_dialect import referenced_properties


def rule_properties(rule: LiftedRule) -> list[str]:
    """Properties the rule's query uses, in numeric order."""
    return sorted(referenced_properties(rule.sparql), key=lambda pid: int(pid[1:]))


def supporting_facts(question: GroundedQuestion, rule: LiftedRule, source: KGSource) -> list[Triple]:
    """The anchor entities' statements over the rule's properties, with qualifiers."""
    properties = rule_properties(rule)
    facts: list[Triple] = []
    for qid in question.anchor_qids:
        facts.extend(source.entity_facts(qid, properties))
    return facts
