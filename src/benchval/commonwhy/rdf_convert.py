"""LitWD1K (LiterallyWikidata) mirror files -> Wikidata-style RDF, as N-Triples.

The output follows Wikidata's own RDF model (https://www.mediawiki.org/wiki/Wikibase/Indexing/RDF_Dump_Format)
so the published WDQS queries can run on it unchanged (after :mod:`.wdqs_dialect`):

- truthy statements ``wd:Q wdt:P value``;
- full statements ``wd:Q p:P wds:<id>``, ``wds:<id> ps:P value`` and ``wikibase:rank wikibase:NormalRank``;
- for dates ``psv:P`` -> ``wikibase:TimeValue`` node with ``wikibase:timeValue`` (xsd:dateTime) and,
  optionally, ``wikibase:timePrecision`` (see :func:`lexical_time_precision`);
- for quantities ``psv:P`` -> ``wikibase:QuantityValue`` node with ``wikibase:quantityAmount`` and
  ``wikibase:quantityUnit wd:<unit>``; ``psn:P`` (the SI-normalised value) only when the unit already is a
  coherent SI unit (:data:`COHERENT_SI_UNITS`), since LitWD1K carries no conversion factors;
- coordinates (``P625_Latitude`` + ``P625_Longtiude`` rows) -> ``"Point(lon lat)"^^geo:wktLiteral`` and a
  ``wikibase:GlobecoordinateValue`` node, when the entity has exactly one latitude and one longitude;
- ``P31`` (instance of) from Entities/entity_types.txt for every LitWD1K entity;
- ``rdfs:label`` / ``schema:description`` in English for every entity, class and unit named, and property
  declarations (``wd:P27 a wikibase:Property; wikibase:directClaim wdt:P27; ...; rdfs:label``).

LitWD1K has no qualifiers and no ranks, so none are written (every statement is NormalRank).
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from benchval.commonwhy.errors import CommonWhyDataError
from benchval.commonwhy.namespaces import GEO, P, PQ, PS, PSN, PSV, RDFS, SCHEMA, WD, WDS, WDT, WDV, WIKIBASE, XSD

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
ENTITY_FILES = ("LitWD1K/train.txt", "LitWD1K/valid.txt", "LitWD1K/test.txt")
LITERAL_FILE = "LitWD1K/numeric_literals.txt"
LABEL_FILE = "Entities/entity_labels_en.txt"
TYPE_FILE = "Entities/entity_types.txt"
DESCRIPTION_FILE = "Entities/entity_wikidata_descriptions_en.txt"
PROPERTY_LABEL_FILES = ("Relations/relation_labels_en.txt", "Attributes/attribute_labels_en.txt")
INPUT_FILES = ENTITY_FILES + (LITERAL_FILE, LABEL_FILE, TYPE_FILE, DESCRIPTION_FILE) + PROPERTY_LABEL_FILES

# Units whose values need no conversion to be SI-normalised: 1, metre, kilogram, second, square metre,
# cubic metre, metre per second, volt, kelvin.
COHERENT_SI_UNITS = frozenset({"Q199", "Q11573", "Q11570", "Q11574", "Q25343", "Q25517", "Q182429", "Q25250", "Q11579"})

_ID = re.compile(r"^[QP]\d+$")
_LITERAL = re.compile(r'^"(.*)"\^\^<([^>]+)>$')
_ATTRIBUTE = re.compile(r"^(P\d+)(?:_(Q\d+|Latitude|Longtiude|Longitude))?$")


def _iri(value: str) -> str:
    return f"<{value}>"


def _string(text: str, language: str | None = None, datatype: str | None = None) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    if language:
        return f'"{escaped}"@{language}'
    return f'"{escaped}"^^<{datatype}>' if datatype else f'"{escaped}"'


def _digest(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]


def lexical_time_precision(lexical: str) -> int:
    """Wikidata time precision implied by a date's lexical form, as a lower bound.

    Wikidata writes a year-precision date as ``YYYY-01-01`` and a month-precision one as ``YYYY-MM-01``,
    so ``01-01`` -> 9 (year), ``MM-01`` -> 10 (month), otherwise 11 (day). A real day-precision date on
    the 1st is under-estimated; a filter such as ``?precision >= 11`` can therefore miss entities but
    never admits one whose date is less precise than claimed.
    """
    found = re.match(r"^[+-]?\d+-(\d\d)-(\d\d)", lexical)
    if not found:
        raise ValueError(f"not a date: {lexical!r}")
    month, day = found.groups()
    if day != "01":
        return 11
    return 9 if month == "01" else 10


@dataclass
class ConversionStats:
    """Counts of what went into the RDF, for the build log and stats file."""

    entity_triples: int = 0
    literal_triples: int = 0
    type_triples: int = 0
    coordinates_written: int = 0
    coordinates_skipped: int = 0
    labels: int = 0
    descriptions: int = 0
    properties: int = 0
    rdf_triples: int = 0
    missing_labels: list[str] = field(default_factory=list)


def _read_tsv(path: Path, columns: int) -> Iterator[tuple[int, list[str]]]:
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            parts = line.split("\t")
            if len(parts) != columns:
                raise CommonWhyDataError(path, number, f"expected {columns} tab-separated fields, got {len(parts)}")
            yield number, parts


def _check_id(path: Path, number: int, value: str) -> str:
    if not _ID.match(value):
        raise CommonWhyDataError(path, number, f"not a Wikidata id: {value!r}")
    return value


def _read_dictionary(path: Path) -> dict[str, str]:
    return {parts[0]: parts[1] for _, parts in _read_tsv(path, 2)}


class _Writer:
    """Collects N-Triples lines, dropping exact duplicates."""

    def __init__(self) -> None:
        self.lines: dict[str, None] = {}

    def add(self, subject: str, predicate: str, obj: str) -> None:
        self.lines[f"{subject} {predicate} {obj} .\n"] = None


def _statement(out: _Writer, entity: str, prop: str, value_nt: str, key: str) -> str:
    """Truthy + full statement for (entity, prop, value); returns the statement node."""
    node = _iri(f"{WDS}{entity}-{_digest(entity, prop, key)}")
    out.add(_iri(WD + entity), _iri(WDT + prop), value_nt)
    out.add(_iri(WD + entity), _iri(P + prop), node)
    out.add(node, _iri(PS + prop), value_nt)
    out.add(node, _iri(WIKIBASE + "rank"), _iri(WIKIBASE + "NormalRank"))
    return node


def _value_node(out: _Writer, kind: str, key: str, facts: list[tuple[str, str]]) -> str:
    node = _iri(f"{WDV}{_digest(kind, key)}")
    out.add(node, _iri(RDF_TYPE), _iri(WIKIBASE + kind))
    for predicate, obj in facts:
        out.add(node, _iri(WIKIBASE + predicate), obj)
    return node


def _write_entity_triples(root: Path, out: _Writer, stats: ConversionStats, used: set[str], props: set[str]) -> None:
    for name in ENTITY_FILES:
        path = root / name
        for number, (head, prop, tail) in _read_tsv(path, 3):
            for value in (head, prop, tail):
                _check_id(path, number, value)
            _statement(out, head, prop, _iri(WD + tail), tail)
            used.update((head, tail))
            props.add(prop)
            stats.entity_triples += 1


def _write_literal(
    out: _Writer,
    path: Path,
    number: int,
    parts: list[str],
    infer_precision: bool,
    coordinates: dict,
    used: set[str],
    props: set[str],
) -> None:
    entity, attribute, raw = parts
    _check_id(path, number, entity)
    found_attribute, found_literal = _ATTRIBUTE.match(attribute), _LITERAL.match(raw)
    if not found_attribute:
        raise CommonWhyDataError(path, number, f"unreadable attribute {attribute!r}")
    if not found_literal:
        raise CommonWhyDataError(path, number, f"unreadable literal {raw!r}")
    prop, suffix = found_attribute.groups()
    lexical, datatype = found_literal.groups()
    used.add(entity)
    if suffix in ("Latitude", "Longtiude", "Longitude"):
        coordinates[(entity, prop)][suffix[:3]].append(lexical)
        return
    props.add(prop)
    value = _string(lexical, datatype=datatype)
    node = _statement(out, entity, prop, value, lexical + (suffix or ""))
    if datatype == XSD + "dateTime":
        facts = [("timeValue", value)]
        if infer_precision:
            facts.append(("timePrecision", _string(str(lexical_time_precision(lexical)), datatype=XSD + "integer")))
        out.add(node, _iri(PSV + prop), _value_node(out, "TimeValue", lexical, facts))
    elif suffix and suffix.startswith("Q"):
        used.add(suffix)
        quantity = _value_node(
            out, "QuantityValue", lexical + suffix, [("quantityAmount", value), ("quantityUnit", _iri(WD + suffix))]
        )
        out.add(node, _iri(PSV + prop), quantity)
        if suffix in COHERENT_SI_UNITS:
            out.add(node, _iri(PSN + prop), quantity)


def _write_literals(
    root: Path, out: _Writer, stats: ConversionStats, infer_precision: bool, used: set[str], props: set[str]
) -> None:
    path = root / LITERAL_FILE
    coordinates: dict = defaultdict(lambda: defaultdict(list))
    for number, parts in _read_tsv(path, 3):
        _write_literal(out, path, number, parts, infer_precision, coordinates, used, props)
        stats.literal_triples += 1
    for (entity, prop), parts in sorted(coordinates.items()):
        latitudes, longitudes = parts["Lat"], parts["Lon"]
        if len(latitudes) != 1 or len(longitudes) != 1:
            stats.coordinates_skipped += 1
            continue
        point = _string(f"Point({float(longitudes[0])} {float(latitudes[0])})", datatype=GEO + "wktLiteral")
        node = _statement(out, entity, prop, point, latitudes[0] + "," + longitudes[0])
        double = XSD + "double"
        globe = _value_node(
            out,
            "GlobecoordinateValue",
            latitudes[0] + "," + longitudes[0],
            [
                ("geoLatitude", _string(latitudes[0], datatype=double)),
                ("geoLongitude", _string(longitudes[0], datatype=double)),
            ],
        )
        out.add(node, _iri(PSV + prop), globe)
        props.add(prop)
        stats.coordinates_written += 1


def _write_types(root: Path, out: _Writer, stats: ConversionStats, entities: set[str], used: set[str]) -> None:
    path = root / TYPE_FILE
    for number, (entity, cls) in _read_tsv(path, 2):
        if entity in entities:
            _check_id(path, number, cls)
            _statement(out, entity, "P31", _iri(WD + cls), cls)
            used.add(cls)
            stats.type_triples += 1


def _write_vocabulary(root: Path, out: _Writer, stats: ConversionStats, used: set[str], props: set[str]) -> None:
    labels = _read_dictionary(root / LABEL_FILE)
    descriptions = _read_dictionary(root / DESCRIPTION_FILE)
    for entity in sorted(used):
        if entity in labels:
            out.add(_iri(WD + entity), _iri(RDFS + "label"), _string(labels[entity], language="en"))
            stats.labels += 1
        else:
            stats.missing_labels.append(entity)
        if entity in descriptions:
            out.add(_iri(WD + entity), _iri(SCHEMA + "description"), _string(descriptions[entity], language="en"))
            stats.descriptions += 1
    property_labels: dict[str, str] = {}
    for name in PROPERTY_LABEL_FILES:
        property_labels.update(_read_dictionary(root / name))
    for prop in sorted(props):
        subject = _iri(WD + prop)
        out.add(subject, _iri(RDF_TYPE), _iri(WIKIBASE + "Property"))
        for link, namespace in (
            ("directClaim", WDT),
            ("claim", P),
            ("statementProperty", PS),
            ("statementValue", PSV),
            ("statementValueNormalized", PSN),
            ("qualifier", PQ),
        ):
            out.add(subject, _iri(WIKIBASE + link), _iri(namespace + prop))
        if prop in property_labels:
            out.add(subject, _iri(RDFS + "label"), _string(property_labels[prop], language="en"))
        stats.properties += 1


def litwd1k_to_ntriples(root: Path | str, infer_time_precision: bool = True) -> tuple[list[str], ConversionStats]:
    """Convert the LitWD1K mirror folder into N-Triples lines (see the module docstring)."""
    root = Path(root)
    for name in INPUT_FILES:
        if not (root / name).is_file():
            raise CommonWhyDataError(root / name, None, "missing LitWD1K file")
    out, stats = _Writer(), ConversionStats()
    used: set[str] = set()
    props: set[str] = {"P31"}
    _write_entity_triples(root, out, stats, used, props)
    _write_literals(root, out, stats, infer_time_precision, used, props)
    _write_types(root, out, stats, set(used), used)
    _write_vocabulary(root, out, stats, used, props)
    lines = list(out.lines)
    stats.rdf_triples = len(lines)
    return lines, stats


def write_ntriples(lines: Iterable[str], path: Path | str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
