"""The WDQS -> standard SPARQL rewrite."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from benchval.commonwhy.wdqs_dialect import (
    WdqsFeatureError,
    referenced_entities,
    referenced_properties,
    to_standard_sparql,
)


def test_label_service_becomes_optional_labels_in_language_order():
    text = to_standard_sparql(
        "SELECT ?item ?itemLabel WHERE { SERVICE wikibase:label { bd:serviceParam "
        'wikibase:language "[AUTO_LANGUAGE],mul,en". } ?item wdt:P27 wd:Q211 . }',
        "de",
    )
    assert "SERVICE" not in text
    body = text[text.index("SELECT") :]
    assert body.index('"de"') < body.index('"mul"') < body.index('"en"')
    assert "AS ?itemLabel)" in body and body.rstrip().endswith("}")


def test_label_falls_back_to_the_entity_id_like_the_label_service():
    store = ox.Store()
    store.add(
        ox.Quad(
            ox.NamedNode("http://www.wikidata.org/entity/Q5"),
            ox.NamedNode("http://www.wikidata.org/prop/direct/P31"),
            ox.NamedNode("http://www.wikidata.org/entity/Q9"),
        )
    )
    query = (
        "SELECT ?x ?xLabel ?xDescription WHERE { ?x wdt:P31 wd:Q9 . "
        'SERVICE wikibase:label { bd:serviceParam wikibase:language "en". } }'
    )
    rows = list(store.query(to_standard_sparql(query)))
    assert rows[0]["xLabel"].value == "Q5" and rows[0]["xDescription"] is None


def test_explicit_label_bindings_are_honoured():
    text = to_standard_sparql(
        "SELECT ?name WHERE { ?x wdt:P31 wd:Q5 . SERVICE wikibase:label { "
        'bd:serviceParam wikibase:language "en". ?x rdfs:label ?name . } }'
    )
    assert "?x rdfs:label ?name__1" in text and "AS ?name)" in text


def test_hints_dates_and_prefixes():
    text = to_standard_sparql(
        'SELECT ?i WHERE { ?i wdt:P569 ?d . hint:Prior hint:rangeSafe "true"^^xsd:boolean.\n'
        ' FILTER(?d < "+1800-00-00T00:00:00Z"^^xsd:dateTime) }'
    )
    assert "hint:Prior" not in text.split("SELECT", 1)[1]
    assert '"1800-01-01T00:00:00Z"^^xsd:dateTime' in text
    assert "PREFIX wdt: <http://www.wikidata.org/prop/direct/>" in text
    ox.Store().query(text)  # parses


def test_declared_prefixes_are_not_repeated_and_standard_queries_survive():
    query = "PREFIX wd: <http://www.wikidata.org/entity/>\nSELECT ?s WHERE { ?s ?p wd:Q1 }"
    text = to_standard_sparql(query)
    assert text.count("PREFIX wd:") == 1 and text.endswith(query)
    assert to_standard_sparql(text) == text  # idempotent


def test_other_wdqs_services_are_refused_by_name():
    with pytest.raises(WdqsFeatureError, match="wikibase:around"):
        to_standard_sparql("SELECT ?p WHERE { SERVICE wikibase:around { ?p wdt:P625 ?loc . } }")


def test_referenced_properties_and_entities():
    query = "SELECT ?i WHERE { ?i p:P27 ?s . ?s ps:P27/wdt:P279* wd:Q211 . ?i <http://www.wikidata.org/prop/direct/P569> ?d }"  # noqa: E501 (one SPARQL query)
    assert referenced_properties(query) == {"P27", "P279", "P569"}
    assert referenced_properties(query, required_only=True) == {"P27", "P569"}
    assert referenced_entities(query) == {"Q211"}
