"""Wikidata's own IRIs and the prefixes the Wikidata Query Service predeclares."""

from __future__ import annotations

import re

WD = "http://www.wikidata.org/entity/"
WDT = "http://www.wikidata.org/prop/direct/"
P = "http://www.wikidata.org/prop/"
PS = "http://www.wikidata.org/prop/statement/"
PSV = "http://www.wikidata.org/prop/statement/value/"
PSN = "http://www.wikidata.org/prop/statement/value-normalized/"
PQ = "http://www.wikidata.org/prop/qualifier/"
WDS = "http://www.wikidata.org/entity/statement/"
WDV = "http://www.wikidata.org/value/"
WIKIBASE = "http://wikiba.se/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SCHEMA = "http://schema.org/"
XSD = "http://www.w3.org/2001/XMLSchema#"
GEO = "http://www.opengis.net/ont/geosparql#"
BD = "http://www.bigdata.com/rdf#"
HINT = "http://www.bigdata.com/queryHints#"

PREFIXES: dict[str, str] = {
    "wd": WD,
    "wdt": WDT,
    "p": P,
    "ps": PS,
    "psv": PSV,
    "psn": PSN,
    "pq": PQ,
    "wds": WDS,
    "wdv": WDV,
    "wikibase": WIKIBASE,
    "rdfs": RDFS,
    "schema": SCHEMA,
    "xsd": XSD,
    "geo": GEO,
    "bd": BD,
    "hint": HINT,
}

_QID = re.compile(r"^[QP]\d+$")


def local_id(iri: str) -> str | None:
    """The QID/PID at the end of an entity or property IRI (any Wikidata namespace), else None."""
    for namespace in (WD, WDT, PSV, PSN, PS, PQ, P):
        if iri.startswith(namespace):
            tail = iri[len(namespace) :]
            return tail if _QID.match(tail) else None
    return None


def prefix_header(names: list[str] | None = None) -> str:
    """``PREFIX`` lines for the given prefix names (all when None)."""
    chosen = PREFIXES if names is None else {n: PREFIXES[n] for n in names}
    return "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in chosen.items())
