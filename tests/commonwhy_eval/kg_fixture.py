"""A tiny Wikidata-shaped graph (statement model, labels) in an in-memory pyoxigraph store."""

from __future__ import annotations

import pyoxigraph as ox

WD, P, PS, WDT = (
    "http://www.wikidata.org/entity/",
    "http://www.wikidata.org/prop/",
    "http://www.wikidata.org/prop/statement/",
    "http://www.wikidata.org/prop/direct/",
)
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
WIKIBASE_CLAIM = "http://wikiba.se/ontology#claim"
XSD = "http://www.w3.org/2001/XMLSchema#"

LABELS = {
    "Q1": "Anna Berg",
    "Q2": "Germany",
    "Q3": "Tour Alpha",
    "Q4": "France",
    "Q5": "Berlin",
    "P27": "country of citizenship",
    "P569": "date of birth",
    "P17": "country",
    "P585": "point in time",
    "P36": "capital",
}
# (subject, property, value): values starting with Q are entities, else (lexical, xsd type)
FACTS = [
    ("Q1", "P27", "Q2"),
    ("Q1", "P569", ("1980-05-01T00:00:00Z", "dateTime")),
    ("Q3", "P17", "Q4"),
    ("Q3", "P585", ("2022-07-01T00:00:00Z", "dateTime")),
    ("Q2", "P36", "Q5"),
    ("Q4", "P17", "Q4"),  # France -country-> France: a self-statement must not support "... in France"
]


def tiny_store() -> ox.Store:
    store = ox.Store()
    n = ox.NamedNode
    for qid, label in LABELS.items():
        store.add(ox.Quad(n(WD + qid), n(RDFS_LABEL), ox.Literal(label, language="en")))
        if qid.startswith("P"):
            store.add(ox.Quad(n(WD + qid), n(WIKIBASE_CLAIM), n(P + qid)))
    for number, (subject, prop, value) in enumerate(FACTS):
        statement = n(f"{WD}statement/S{number}")
        obj = n(WD + value) if isinstance(value, str) else ox.Literal(value[0], datatype=n(XSD + value[1]))
        store.add(ox.Quad(n(WD + subject), n(P + prop), statement))
        store.add(ox.Quad(statement, n(PS + prop), obj))
        store.add(ox.Quad(n(WD + subject), n(WDT + prop), obj))
    return store


def tiny_source():
    from benchval.commonwhy.kg.local import LocalSource

    return LocalSource(tiny_store(), name="tiny")
