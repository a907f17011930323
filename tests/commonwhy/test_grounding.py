"""Grounding + subgraph on a tiny hand-made graph: exact question, answer and supporting facts."""

from __future__ import annotations

import pytest

from benchval.commonwhy.errors import RuleError
from benchval.commonwhy.grounding import ground_rule
from benchval.commonwhy.pipeline import construct
from benchval.commonwhy.rules import LiftedRule, infer_variables
from benchval.commonwhy.subgraph import supporting_facts

XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime"


@pytest.fixture()
def make_rule(tiny_rule_sparql):
    def make(**changes) -> LiftedRule:
        return _rule(tiny_rule_sparql, **changes)

    return make


def _rule(default_sparql: str, **changes) -> LiftedRule:
    fields = dict(
        id="tiny-001",
        rule="If person A was born after 2001 and is a citizen of Latvia, then A could not have voted in the 1998 Latvian election.",  # noqa: E501 (one rule sentence)
        sparql=default_sparql,
        question="Why couldn't person A have voted in the 1998 Latvian election?",
        answer="Because person A was born after 2001, long after the 1998 Latvian election, and A is Latvian.",
        variables={"person A": "item"},
        origin="test",
    )
    fields.update(changes)
    return LiftedRule(**fields)


def test_rule_grounds_to_the_exact_question_answer_and_subgraph(tiny_source, make_rule):
    questions, report = ground_rule(make_rule(), tiny_source)
    assert [q.question for q in questions] == ["Why couldn't Alice Example have voted in the 1998 Latvian election?"]
    assert questions[0].answer == (
        "Because Alice Example was born after 2001, long after the 1998 Latvian election, and Alice Example is Latvian."
    )
    assert questions[0].anchor_qids == ["Q1"] and questions[0].question_id == "tiny-001-Q1"
    assert (report.status, report.rows_returned, report.questions_built) == ("grounded", 1, 1)

    facts = [fact.to_record() for fact in supporting_facts(questions[0], make_rule(), tiny_source)]
    assert facts == [
        {
            "subject": "Q1",
            "subject_label": "Alice Example",
            "property": "P27",
            "property_label": "country of citizenship",
            "value": "Q211",
            "value_kind": "iri",
            "value_datatype": None,
            "value_label": "Latvia",
            "qualifiers": [
                {
                    "property": "P580",
                    "property_label": "start time",
                    "value": "2021-01-01T00:00:00Z",
                    "value_label": None,
                }
            ],
        },
        {
            "subject": "Q1",
            "subject_label": "Alice Example",
            "property": "P569",
            "property_label": "date of birth",
            "value": "2003-05-17T00:00:00Z",
            "value_kind": "literal",
            "value_datatype": XSD_DATETIME,
            "value_label": None,
            "qualifiers": [],
        },
    ]


def test_construct_on_tiny_graph_gives_one_row_with_template_answer(tiny_source, make_rule):
    table, report, summary = construct([make_rule()], tiny_source)
    assert table["answers"].tolist() == [[table["template_answer"].iloc[0]]]
    assert table["popularity"].tolist() == [2]  # Q1 has two wdt: triples
    assert table["split"].tolist() == ["middle"]  # one question: neither half
    assert summary["rules_grounded"] == 1 and summary["questions_built"] == 1 and table["n_facts"].tolist() == [2]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"sparql": ""}, "field 'sparql' is missing or empty"),
        ({"question": "Why couldn't someone have voted?"}, "placeholder 'person A' does not occur"),
        ({"variables": {}}, "no placeholder found"),
        ({"variables": {"person A": "person"}}, "does not select ?person"),
    ],
)
def test_malformed_rule_fails_naming_its_id(tiny_source, make_rule, changes, message):
    with pytest.raises(RuleError, match=r"^rule tiny-001: ") as caught:
        ground_rule(make_rule(**changes), tiny_source)
    assert message in str(caught.value)


def test_reported_reasons_when_a_rule_yields_nothing(tiny_source, make_rule):
    _, broken = ground_rule(make_rule(sparql='"SELECT ?item ?itemLabel WHERE { ?item wdt:P27 wd:Q211 }'), tiny_source)
    assert broken.status == "parse_error" and broken.reason.startswith("query failed to parse")
    _, no_property = ground_rule(make_rule(sparql="SELECT ?item WHERE { ?item wdt:P106 wd:Q937857 . }"), tiny_source)
    assert (no_property.status, no_property.missing_properties) == ("missing_property", "P106")
    _, no_entity = ground_rule(make_rule(sparql="SELECT ?item WHERE { ?item wdt:P27 wd:Q794 . }"), tiny_source)
    assert (no_entity.status, no_entity.missing_entities) == ("missing_entity", "Q794")
    _, no_match = ground_rule(
        make_rule(
            sparql="SELECT ?item WHERE { ?item wdt:P27 wd:Q211 ; wdt:P569 ?d . "
            'FILTER(?d > "2010-01-01T00:00:00Z"^^xsd:dateTime) }'
        ),
        tiny_source,
    )
    assert no_match.status == "no_match" and no_match.rows_returned == 0
    _, unsupported = ground_rule(
        make_rule(
            sparql='SELECT ?item WHERE { SERVICE wikibase:mwapi { bd:serviceParam wikibase:api "EntitySearch" . } }'
        ),
        tiny_source,
    )
    assert unsupported.status == "unsupported_feature" and "wikibase:mwapi" in unsupported.reason


def test_placeholders_inferred_like_the_published_templates(make_rule):
    assert infer_variables("Why can't device D operate during a blackout?") == {"device D": "item"}
    assert infer_variables("Why couldn't person A have fought in World War I?") == {"person A": "item"}
    assert make_rule().instantiate({"item": "Zoë"})[1].endswith("and Zoë is Latvian.")
