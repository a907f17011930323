"""The one place where Wikidata-Query-Service (WDQS) SPARQL is turned into standard SPARQL 1.1.

The published CommonWhy queries were written for query.wikidata.org, which accepts things that a
plain SPARQL 1.1 engine (pyoxigraph, Fuseki, ...) does not. :func:`to_standard_sparql` rewrites them:

1. Predeclared prefixes. WDQS knows ``wd:``, ``wdt:``, ``p:``, ``ps:``, ``psv:``, ``wikibase:``, ... without
   ``PREFIX`` lines; every Wikidata prefix the query does not declare itself is added.
2. ``SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],mul,en". }``.
   The block is removed and, at the end of the group that contained it, each requested ``?xLabel``
   (or ``?xDescription``) becomes one ``OPTIONAL { ?x rdfs:label ?l . FILTER(LANG(?l) = "lang") }`` per
   language in preference order plus ``BIND(COALESCE(...) AS ?xLabel)``. Like the label service, an
   entity without a label in any language gets its id (``Q123``) as label. ``[AUTO_LANGUAGE]`` becomes
   ``default_language``. Variables: with explicit bindings in the block (``?x rdfs:label ?name``)
   those are used; otherwise (automatic mode) every ``?fooLabel`` / ``?fooDescription`` whose ``?foo``
   occurs in the query.
3. Blazegraph query hints (``hint:Prior hint:rangeSafe "true"^^xsd:boolean.``) are dropped: they only
   steer the optimiser, and a standard engine would read them as a triple pattern that never matches.
4. WDQS date literals: ``"+1979-01-01T00:00:00Z"^^xsd:dateTime`` loses the ``+`` (not valid in
   ``xsd:dateTime``), and the month/day ``00`` WDQS accepts for year precision becomes ``01``.

Anything else WDQS-only (``SERVICE wikibase:mwapi``, ``wikibase:around``, ``bd:sample``,
``?xAltLabel``) raises :class:`WdqsFeatureError` naming the feature, so callers can report that the
rule cannot run on a standard endpoint.
"""

from __future__ import annotations

import re

from benchval.commonwhy.namespaces import PREFIXES


class WdqsFeatureError(ValueError):
    """The query uses a WDQS-only feature this translator does not handle."""


# strings, IRIs and comments are masked before looking at braces/keywords
_OPAQUE = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''
    r'|<[^<>"{}|^`\\\s]*>|#[^\n]*'
)
_LABEL_SERVICE = re.compile(r"SERVICE\s+wikibase:label\s*\{", re.IGNORECASE)
_OTHER_SERVICE = re.compile(r"SERVICE\s+(?:SILENT\s+)?((?:wikibase|bd):\w+)", re.IGNORECASE)
_HINT = re.compile(r'hint:\w+\s+hint:\w+\s+(?:"[^"]*"(?:\^\^[\w:]+)?|[\w:.+-]+?)\s*(?:\.|(?=\}))')
_WDQS_DATE = re.compile(r'"([+-]?)(\d{1,16})-(\d\d)-(\d\d)(T[^"]*)"\^\^xsd:dateTime')
_DECLARED = re.compile(r"PREFIX\s+([A-Za-z][\w.-]*)?:", re.IGNORECASE)
_LANGUAGE_PARAM = re.compile(r'wikibase:language\s+"([^"]*)"')
_EXPLICIT_BINDING = re.compile(r"\?(\w+)\s+(rdfs:label|schema:description|skos:altLabel)\s+\?(\w+)")
_SUFFIX_PREDICATE = {"Label": "rdfs:label", "Description": "schema:description"}


def _masked(text: str) -> str:
    """``text`` with strings, IRIs and comments blanked out (same length, so offsets agree)."""
    return _OPAQUE.sub(lambda m: " " * len(m.group(0)), text)


def _matching_brace(masked: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(masked)):
        if masked[i] == "{":
            depth += 1
        elif masked[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise SyntaxError(f"unbalanced '{{' at offset {open_at}")


def _enclosing_group(masked: str, position: int) -> tuple[int, int]:
    """Offsets of the '{' and '}' of the innermost group containing ``position``."""
    depth = 0
    for i in range(position - 1, -1, -1):
        if masked[i] == "}":
            depth += 1
        elif masked[i] == "{":
            if depth == 0:
                return i, _matching_brace(masked, i)
            depth -= 1
    raise SyntaxError("SERVICE wikibase:label outside any group")


def _languages(block: str, default_language: str) -> list[str]:
    found = _LANGUAGE_PARAM.search(block)
    raw = found.group(1) if found else default_language
    languages = []
    for part in (p.strip() for p in raw.split(",")):
        part = default_language if part == "[AUTO_LANGUAGE]" else part
        if part and part not in languages:
            languages.append(part)
    return languages


def _requested_labels(query: str, block: str) -> list[tuple[str, str, str]]:
    """(entity variable, predicate, output variable) triples the label service must fill."""
    explicit = _EXPLICIT_BINDING.findall(block)
    if explicit:
        for _, predicate, _ in explicit:
            if predicate == "skos:altLabel":
                raise WdqsFeatureError("label service with skos:altLabel")
        return [(var, predicate, out) for var, predicate, out in explicit]
    variables = set(re.findall(r"[?$](\w+)", _masked(query)))
    requested = []
    for name in sorted(variables):
        if name.endswith("AltLabel") and name[: -len("AltLabel")] in variables:
            raise WdqsFeatureError(f"label service ?{name} (alt labels)")
        for suffix, predicate in _SUFFIX_PREDICATE.items():
            base = name[: -len(suffix)]
            if name.endswith(suffix) and base in variables and not base.endswith("Alt"):
                requested.append((base, predicate, name))
    return requested


def _label_patterns(requests: list[tuple[str, str, str]], languages: list[str]) -> str:
    lines = []
    for var, predicate, out in requests:
        candidates = []
        for k, language in enumerate(languages, start=1):
            tmp = f"?{out}__{k}"
            lines.append(f'OPTIONAL {{ ?{var} {predicate} {tmp} . FILTER(LANG({tmp}) = "{language}") }}')
            candidates.append(tmp)
        if predicate == "rdfs:label":  # the label service falls back to the entity id
            candidates.append(f'IF(isIRI(?{var}), STRAFTER(STR(?{var}), "{PREFIXES["wd"]}"), STR(?{var}))')
        lines.append(f"BIND(COALESCE({', '.join(candidates)}) AS ?{out})")
    return "\n  ".join(lines)


def _translate_label_service(query: str, default_language: str) -> str:
    while True:
        found = _LABEL_SERVICE.search(_masked(query))
        if not found:
            return query
        masked = _masked(query)
        block_open = found.end() - 1
        block_close = _matching_brace(masked, block_open)
        block = query[block_open + 1 : block_close]
        requests = _requested_labels(query, block)
        patterns = _label_patterns(requests, _languages(block, default_language))
        without = query[: found.start()] + query[block_close + 1 :]
        _, group_close = _enclosing_group(_masked(without), found.start())
        query = without[:group_close] + "\n  " + patterns + "\n" + without[group_close:]


def _fix_date(match: re.Match) -> str:
    sign, year, month, day, rest = match.groups()
    month = "01" if month == "00" else month
    day = "01" if day == "00" else day
    sign = "-" if sign == "-" else ""
    return f'"{sign}{year.zfill(4)}-{month}-{day}{rest}"^^xsd:dateTime'


def _add_prefixes(query: str) -> str:
    declared = {name or "" for name in _DECLARED.findall(_masked(query))}
    missing = [name for name in PREFIXES if name not in declared]
    return "".join(f"PREFIX {name}: <{PREFIXES[name]}>\n" for name in missing) + query


def to_standard_sparql(query: str, default_language: str = "en") -> str:
    """Rewrite WDQS-flavoured SPARQL into standard SPARQL 1.1 (see the module docstring)."""
    other = [m.group(1) for m in _OTHER_SERVICE.finditer(_masked(query)) if m.group(1).lower() != "wikibase:label"]
    if other:
        raise WdqsFeatureError(f"WDQS-only service {', '.join(sorted(set(other)))}")
    query = _HINT.sub("", query)
    query = _WDQS_DATE.sub(_fix_date, query)
    query = _translate_label_service(query, default_language)
    return _add_prefixes(query)


_PROPERTY_IRI = re.compile(
    r"www\.wikidata\.org/prop/(?:direct/|statement/(?:value(?:-normalized)?/)?|qualifier/)?(P\d+)>"
)
_PROPERTY_NAME = re.compile(r"\b(?:wdt|p|ps|psv|psn|pq|wd):(P\d+)\b(\*?)")


def referenced_properties(query: str, required_only: bool = False) -> set[str]:
    """Property ids the query uses (``wdt:P27``, ``ps:P569``, full IRIs ...).

    With ``required_only``, properties used only under a zero-or-more path (``wdt:P279*``) are left
    out: a KG without them can still match the query.
    """
    uses: dict[str, set[bool]] = {}
    for pid, star in _PROPERTY_NAME.findall(_masked(query)):
        uses.setdefault(pid, set()).add(bool(star))
    for pid in _PROPERTY_IRI.findall(query):
        uses.setdefault(pid, set()).add(False)
    return {pid for pid, stars in uses.items() if not required_only or False in stars}


def referenced_entities(query: str) -> set[str]:
    """Item ids the query names as constants (``wd:Q211``)."""
    return set(re.findall(r"\bwd:(Q\d+)\b", _masked(query)))
