"""The knowledge-graph source interface shared by the local store and a remote SPARQL endpoint.

Every method is plain SPARQL on Wikidata's RDF model, so a local pyoxigraph store converted from
LitWD1K and the Wikidata Query Service answer the same calls:

- ``query(sparql) -> list[dict[str, Term]]`` one dict per solution, unbound variables left out;
- ``ask(sparql) -> bool``;
- ``label(qid) -> str | None``, ``search_label(text) -> list[(qid, label)]`` (exact English label);
- ``entity_facts(qid, properties=None) -> list[Triple]`` statements with qualifiers and labels;
- ``triple_count(qid) -> int`` truthy (``wdt:``) triples with the entity as subject (its popularity);
- ``has_property(pid) -> bool`` whether any statement uses the property.

Subclasses implement only ``_select`` and ``_ask`` on the text they receive.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from benchval.commonwhy.namespaces import P, PQ, PS, WDT, XSD, local_id, prefix_header


class KGQueryError(RuntimeError):
    """A query the source could not answer."""


class QuerySyntaxError(KGQueryError):
    """The source rejected the query text as malformed."""


class QueryTimeoutError(KGQueryError):
    """The source did not answer in time (after retries, for remote sources)."""


class EndpointError(KGQueryError):
    """The remote endpoint failed for another reason (HTTP error, bad answer)."""


class EndpointUnreachable(KGQueryError):
    """The circuit breaker opened: too many consecutive failed requests. Not absorbed per rule; the job fails."""


@dataclass(frozen=True)
class Term:
    """An RDF term in a query answer. ``datatype`` is None for language-tagged strings and IRIs."""

    value: str
    kind: str  # "iri" | "literal" | "bnode"
    datatype: str | None = None
    language: str | None = None

    @property
    def qid(self) -> str | None:
        """The Wikidata id when this is an entity/property IRI, else None."""
        return local_id(self.value) if self.kind == "iri" else None

    def __str__(self) -> str:
        return self.value


def literal(value: str, datatype: str | None = XSD + "string", language: str | None = None) -> Term:
    return Term(value, "literal", None if language else datatype, language)


@dataclass(frozen=True)
class Qualifier:
    property: str
    value: Term
    property_label: str | None = None
    value_label: str | None = None


@dataclass(frozen=True)
class Triple:
    """One statement ``(subject, property, value)`` with its qualifiers (hyper-relational triple)."""

    subject: str
    property: str
    value: Term
    subject_label: str | None = None
    property_label: str | None = None
    value_label: str | None = None
    qualifiers: tuple[Qualifier, ...] = field(default_factory=tuple)

    def to_record(self) -> dict:
        """Plain dict in the layout of the ``subgraph`` column of constructed.parquet."""
        return {
            "subject": self.subject,
            "subject_label": self.subject_label,
            "property": self.property,
            "property_label": self.property_label,
            "value": self.value.qid or self.value.value,
            "value_kind": self.value.kind,
            "value_datatype": self.value.datatype,
            "value_label": self.value_label,
            "qualifiers": [
                {
                    "property": q.property,
                    "property_label": q.property_label,
                    "value": q.value.qid or q.value.value,
                    "value_label": q.value_label,
                }
                for q in self.qualifiers
            ],
        }


_HEADER = prefix_header()


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


class KGSource(ABC):
    """A Wikidata-shaped knowledge graph that answers SPARQL (see the module docstring)."""

    name: str = "kg"
    language: str = "en"

    @abstractmethod
    def _select(self, sparql: str) -> list[dict[str, Term]]:
        """Run a SELECT query given as (possibly WDQS-flavoured) text."""

    @abstractmethod
    def _ask(self, sparql: str) -> bool:
        """Run an ASK query."""

    def query(self, sparql: str) -> list[dict[str, Term]]:
        return self._select(sparql)

    def ask(self, sparql: str) -> bool:
        return self._ask(sparql)

    def label(self, qid: str) -> str | None:
        rows = self.query(
            _HEADER
            + f'SELECT ?label WHERE {{ wd:{qid} rdfs:label ?label . FILTER(LANG(?label) = "{self.language}") }} LIMIT 1'
        )
        return rows[0]["label"].value if rows else None

    def search_label(self, text: str, limit: int = 10) -> list[tuple[str, str]]:
        rows = self.query(
            _HEADER
            + f'SELECT DISTINCT ?item WHERE {{ ?item rdfs:label "{_escape(text)}"@{self.language} . }} LIMIT {int(limit)}'  # noqa: E501 (one SPARQL query)
        )
        found = [row["item"].qid for row in rows if row["item"].qid]
        return [(qid, text) for qid in sorted(found, key=lambda q: (q[0], int(q[1:])))]

    def has_property(self, pid: str) -> bool:
        return self.ask(_HEADER + f"ASK {{ ?s p:{pid} ?o . }}")

    def triple_count(self, qid: str) -> int:
        rows = self.query(
            _HEADER + f'SELECT (COUNT(*) AS ?n) WHERE {{ wd:{qid} ?p ?o . FILTER(STRSTARTS(STR(?p), "{WDT}")) }}'
        )
        return int(rows[0]["n"].value) if rows else 0

    def entity_facts(self, qid: str, properties: list[str] | None = None) -> list[Triple]:
        """Non-deprecated statements of ``qid`` (restricted to ``properties`` if given), with qualifiers."""
        claims = ""
        if properties is not None:
            if not properties:
                return []
            claims = "VALUES ?claim { " + " ".join(f"p:{pid}" for pid in sorted(properties)) + " }"
        lang = self.language
        rows = self.query(
            _HEADER
            + f"""
SELECT ?statement ?claim ?value ?valueLabel ?propLabel ?qualifier ?qvalue ?qvalueLabel ?qpropLabel ?subjectLabel WHERE {{
  {claims}
  wd:{qid} ?claim ?statement .
  FILTER(STRSTARTS(STR(?claim), "{P}P"))
  BIND(IRI(CONCAT("{PS}", STRAFTER(STR(?claim), "{P}"))) AS ?ps)
  ?statement ?ps ?value .
  MINUS {{ ?statement wikibase:rank wikibase:DeprecatedRank . }}
  OPTIONAL {{ wd:{qid} rdfs:label ?subjectLabel . FILTER(LANG(?subjectLabel) = "{lang}") }}
  OPTIONAL {{ ?value rdfs:label ?valueLabel . FILTER(LANG(?valueLabel) = "{lang}") }}
  OPTIONAL {{ ?prop wikibase:claim ?claim ; rdfs:label ?propLabel . FILTER(LANG(?propLabel) = "{lang}") }}
  OPTIONAL {{
    ?statement ?qualifier ?qvalue .
    FILTER(STRSTARTS(STR(?qualifier), "{PQ}P"))
    OPTIONAL {{ ?qvalue rdfs:label ?qvalueLabel . FILTER(LANG(?qvalueLabel) = "{lang}") }}
    OPTIONAL {{ ?qprop wikibase:qualifier ?qualifier ; rdfs:label ?qpropLabel . FILTER(LANG(?qpropLabel) = "{lang}") }}
  }}
}}"""
        )
        return _group_facts(qid, rows)


def _text(row: dict[str, Term], key: str) -> str | None:
    return row[key].value if key in row else None


def _group_facts(qid: str, rows: list[dict[str, Term]]) -> list[Triple]:
    grouped: dict[tuple, dict] = {}
    for row in rows:
        key = (row["statement"].value, row["claim"].value, row["value"])
        entry = grouped.setdefault(key, {"row": row, "qualifiers": {}})
        if "qualifier" in row and "qvalue" in row:
            qualifier = Qualifier(
                local_id(row["qualifier"].value) or row["qualifier"].value,
                row["qvalue"],
                _text(row, "qpropLabel"),
                _text(row, "qvalueLabel"),
            )
            entry["qualifiers"][(qualifier.property, qualifier.value)] = qualifier
    triples = []
    for (_, claim, value), entry in grouped.items():
        row = entry["row"]
        triples.append(
            Triple(
                subject=qid,
                property=local_id(claim) or claim,
                value=value,
                subject_label=_text(row, "subjectLabel"),
                property_label=_text(row, "propLabel"),
                value_label=_text(row, "valueLabel"),
                qualifiers=tuple(sorted(entry["qualifiers"].values(), key=lambda q: (q.property, q.value.value))),
            )
        )
    return sorted(set(triples), key=lambda t: (t.property, t.value.value))
