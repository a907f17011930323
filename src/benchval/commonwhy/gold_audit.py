"""An audit of the published gold: rules whose grounding query does not match their own template, and items
whose stated comparison contradicts their own numbers (docs/commonwhy.md, "Audited gold").

The published items were grounded by running each rule's SPARQL query (``inference_rule_entities.json``) on
Wikidata; an item is only as true as the query that chose its anchor. The check reads the raw file alone:

**Rules** (:func:`audit_rule`): the rule's antecedent ("If a person A died before 1774, then ...") names what the
query must test. Two kinds of antecedent are read; any other is not checked (its ``reasons`` is None):

- a date bound, "(died | was born) (before | after) [day month] YEAR": the query must use the property
  (died: P570 date of death, born: P569 date of birth), compare a date with that year (``before YEAR``: a
  ``<``/``<=`` filter on a date in YEAR, or ``<=`` on the last day of YEAR - 1; ``after YEAR``: a ``>``/``>=``
  filter on a date in YEAR, or ``>=`` on YEAR + 1) in that direction;
- a quantity bound, "the (height | area) of X is (greater | more | higher | less | smaller | lower) than N unit":
  the query must use the property (height P2048, area P2046), bind the quantity N (``BIND("N"^^xsd:decimal``)
  and compare the item's quantity with it in that direction (``?statementQuantity > ?coherentUserQuantity``
  for greater).

Each failed test is one reason: ``property`` (the template's property is not in the query), ``constant`` (no
comparison with the template's year or quantity, and the query's bound does not imply the template's: "died
before 1774" grounded with "< 2010"), ``constant_stricter`` (another bound that implies the template's: "died
before 2002" grounded with "< 1999"; the anchors still satisfy the template, but the query is not the rule's) or
``direction`` (the comparisons with the template's property go the other way). cw008 "died before 1774" was
grounded with ``?P570_0 < "+2010-..."``: reason ``constant``, and its anchors (people who died before 2010,
e.g. Mikhail Tal, 1992) are no answer to "died before 1774".

**Items** (:func:`audit_item`): an answer that states a comparison ("the height of X is less than 247 metre,
which is the depth of Y") and a question whose event depends on its direction contradicts itself when the
direction is the wrong one: the top of a building is visible in water only when its height is greater than
the depth (reason ``comparison_contradicts_numbers``), and a town fits in a lake only when its area is smaller.

Entity constants (a country's, an occupation's QID) are not checked: the raw files carry no labels for them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

REASONS = ("property", "constant", "constant_stricter", "direction", "comparison_contradicts_numbers")
_ANTECEDENT = re.compile(r"^\s*if\s+(.+?),\s*(?:then|it would)\b", re.IGNORECASE | re.DOTALL)
_DATE_BOUND = re.compile(
    r"\b(died|born)\s+(before|after)\s+(?:\d{1,2}\s+[A-Z][a-z]+\s+)?(\d{3,4})\b(?!\s*(?:years|km|metre|meter))",
    re.IGNORECASE,
)
_QUANTITY_BOUND = re.compile(
    r"\b(height|area)\s+of\s+.+?\s+is\s+(greater|more|higher|larger|bigger|less|smaller|lower)\s+than\s+"
    r"([\d][\d,]*(?:\.\d+)?)",
    re.IGNORECASE,
)
DATE_PROPERTY = {"died": "P570", "born": "P569"}
QUANTITY_PROPERTY = {"height": "P2048", "area": "P2046"}
GREATER = {"after", "greater", "more", "higher", "larger", "bigger"}
_DATE_FILTER = re.compile(r'FILTER\s*\(\s*\?(\w+)\s*(<=|>=|<|>)\s*"\+?(\d{1,4})-(\d\d)-(\d\d)')
_QUANTITY_FILTER = re.compile(r"FILTER\s*\(\s*\?statementQuantity\s*(<=|>=|<|>)\s*\?coherentUserQuantity\s*\)")
_QUANTITY_BIND = re.compile(r'BIND\s*\(\s*"([\d.]+)"\^\^xsd:decimal\s+AS\s+\?userQuantity\s*\)')


def antecedent(rule: str) -> str | None:
    match = _ANTECEDENT.match(rule or "")
    return match.group(1) if match else None


def _properties(sparql: str) -> set[str]:
    return set(re.findall(r"\bP\d+\b", sparql))


def _date_filters(sparql: str) -> list[tuple[str, str, int, int, int]]:
    """(variable, operator, year, month, day) of every comparison of a variable with a date literal."""
    return [(v, op, int(y), int(m), int(d)) for v, op, y, m, d in _DATE_FILTER.findall(sparql)]


def _filter_property(variable: str, sparql: str) -> str | None:
    """The date property a filtered variable holds: ``?P570_0`` by its name, else the psv:/ps: path that ends
    in a value whose ``wikibase:timeValue`` is the variable, else the only date property of the query."""
    named = re.match(r"(P\d+)_\d+$", variable)
    if named:
        return named.group(1)
    value = re.search(r"\?(\w+)\s+wikibase:timeValue\s+\?" + re.escape(variable) + r"\b", sparql)
    if value:
        path = re.search(r"psv?:(P\d+)\s+\?" + re.escape(value.group(1)) + r"\b", sparql)
        if path:
            return path.group(1)
    dates = _properties(sparql) & set(DATE_PROPERTY.values())
    return next(iter(dates)) if len(dates) == 1 else None


def _constant(stricter: bool, detail: str) -> str:
    if stricter:
        return f"constant_stricter: {detail} (stricter than the template: its anchors still satisfy it)"
    return f"constant: {detail} (not implied by the template's bound: anchors may not satisfy it)"


def _year_matches(greater: bool, op: str, year: int, month: int, day: int, bound: int) -> bool:
    """The filter's date is the template's year bound (see the module docstring)."""
    if not greater:
        return year == bound or (op == "<=" and year == bound - 1 and (month, day) == (12, 31))
    return year == bound or (op == ">=" and year == bound + 1 and (month, day) in {(0, 0), (1, 1)})


def _audit_date(match: re.Match, sparql: str) -> list[str]:
    verb, word, year = match.group(1).lower(), match.group(2).lower(), int(match.group(3))
    prop, greater = DATE_PROPERTY[verb], word in GREATER
    reasons = []
    if prop not in _properties(sparql):
        reasons.append(f"property: the template says {verb} ({prop}); the query has no {prop}")
    filters = [f for f in _date_filters(sparql) if _filter_property(f[0], sparql) in (prop, None)] or _date_filters(
        sparql
    )
    if not any(_year_matches(greater, op, y, m, d, year) for _v, op, y, m, d in filters):
        found = ", ".join(f"{op} {y}" for _v, op, y, _m, _d in filters) or "none"
        years = [y for _v, _op, y, _m, _d in filters]
        stricter = bool(years) and all((y >= year) if greater else (y <= year) for y in years)
        reasons.append(_constant(stricter, f"the template says {word} {year}; the query compares dates {found}"))
    if filters and not any((op in (">", ">=")) == greater for _v, op, *_ in filters):
        reasons.append(f"direction: the template says {word}; the query's date filters are {filters[0][1]}")
    return reasons


def _audit_quantity(match: re.Match, sparql: str) -> list[str]:
    what, word, number = match.group(1).lower(), match.group(2).lower(), match.group(3).replace(",", "")
    prop, greater = QUANTITY_PROPERTY[what], word in GREATER
    reasons = []
    if prop not in _properties(sparql):
        reasons.append(f"property: the template says {what} ({prop}); the query has no {prop}")
    bound = _QUANTITY_BIND.findall(sparql)
    if not any(float(b) == float(number) for b in bound):
        stricter = bool(bound) and all((float(b) >= float(number)) == greater for b in bound)
        reasons.append(_constant(stricter, f"the template says {number}; the query binds {', '.join(bound) or 'none'}"))
    operators = _QUANTITY_FILTER.findall(sparql)
    if operators and not any((op in (">", ">=")) == greater for op in operators):
        reasons.append(f"direction: the template says {word} than; the query compares with {operators[0]}")
    return reasons


def audit_rule(rule: str, sparql: str) -> list[str] | None:
    """Reasons the rule's query does not match its template ("<reason>: <detail>"); [] when it matches; None
    when the antecedent is of no kind this check reads."""
    cause = antecedent(rule)
    if cause is None:
        return None
    date, quantity = _DATE_BOUND.search(cause), _QUANTITY_BOUND.search(cause)
    if date:
        return _audit_date(date, sparql)
    if quantity:
        return _audit_quantity(quantity, sparql)
    return None


_STATED = re.compile(
    r"\b(height|area)\s+of\s+.+?\s+is\s+(greater|more|higher|larger|bigger|less|smaller|lower)\s+than\s+[\d.,]+"
    r"\s*[\w ]*?,\s*which is the (depth|area|size)\b",
    re.IGNORECASE,
)
_VISIBLE = re.compile(r"\b(?:(not|n['’]t)\s+)?(?:be\s+)?visible\b", re.IGNORECASE)
_FITS = re.compile(r"\b(can(?:not|'t|’t)?|could(?:n't|n’t| not)?)\s+(?:\w+\s+){0,3}?fit\b", re.IGNORECASE)


def audit_item(question: str, answer: str) -> list[str]:
    """``comparison_contradicts_numbers`` when the answer's comparison makes the question's event false:
    visible in water needs height greater than the depth; fitting in a place needs an area smaller than it."""
    stated = _STATED.search(answer or "")
    if not stated:
        return []
    greater = stated.group(2).lower() in GREATER
    visible, fits = _VISIBLE.search(question), _FITS.search(question)
    if stated.group(1).lower() == "height" and visible:
        event, holds = ("not visible" if visible.group(1) else "visible"), not visible.group(1)
        if holds != greater:
            return [f"comparison_contradicts_numbers: {event} though the height is {stated.group(2)} than the depth"]
    if stated.group(1).lower() == "area" and fits:
        negated = bool(re.search(r"not|n't|n’t", fits.group(1)))
        if negated != greater:
            event = "cannot fit" if negated else "fits"
            return [f"comparison_contradicts_numbers: {event} though the area is {stated.group(2)} than the place's"]
    return []


def reason_name(reason: str) -> str:
    return reason.split(":", 1)[0]


def audit_rules(rule_entities: Path | str) -> dict[str, dict]:
    """Rule text -> {rule_id, reasons (None: not checked)} for every rule of ``inference_rule_entities.json``."""
    data = json.loads(Path(rule_entities).read_text(encoding="utf-8"))
    return {
        text: {"rule_id": f"cw{number:03d}", "reasons": audit_rule(text, (entry or {}).get("sparql", ""))}
        for number, (text, entry) in enumerate(data.items(), start=1)
    }


def audit_summary(rules: dict[str, dict], item_reasons: Iterable[list[str]]) -> dict:
    """Counts for the report: rules checked / flagged per reason (with the rules), items flagged per reason."""
    checked = {t: r for t, r in rules.items() if r["reasons"] is not None}
    flagged = {t: r for t, r in checked.items() if r["reasons"]}
    items = list(item_reasons)
    per_reason = Counter(reason_name(x) for reasons in items for x in set(map(reason_name, reasons)))
    return {
        "rules": len(rules),
        "rules_checked": len(checked),
        "rules_not_checked": len(rules) - len(checked),
        "rules_flagged": len(flagged),
        "rules_flagged_per_reason": dict(
            Counter(reason_name(x) for r in flagged.values() for x in {reason_name(y) for y in r["reasons"]})
        ),
        "flagged_rules": [{"rule_id": r["rule_id"], "rule": t, "reasons": r["reasons"]} for t, r in flagged.items()],
        "items": len(items),
        "items_flagged": sum(bool(x) for x in items),
        "items_flagged_per_reason": {reason: int(per_reason.get(reason, 0)) for reason in REASONS},
    }


def exclude_flagged(table: pd.DataFrame, reasons: Iterable[str], id_column: str) -> tuple[pd.DataFrame, dict]:
    """`table` without the items flagged for one of `reasons` (its ``audit_reasons`` column; a table without
    it is from before the audit and is refused), and what was removed: counts per reason and the ids."""
    if "audit_reasons" not in table:
        raise ValueError("the table has no 'audit_reasons' column: rebuild it (rules commonwhy_published/_ground)")
    wanted = set(reasons)
    unknown = wanted - set(REASONS)
    if unknown:
        raise ValueError(f"unknown gold-audit reasons {sorted(unknown)}; known: {list(REASONS)}")
    names = table["audit_reasons"].map(lambda rs: {reason_name(r) for r in rs})
    hit = names.map(lambda found: bool(found & wanted))
    per_reason = Counter(r for found in names[hit] for r in found & wanted)
    removed = {
        "before": int(len(table)),
        "after": int((~hit).sum()),
        "removed_per_reason": {r: int(per_reason.get(r, 0)) for r in REASONS if r in wanted},
        "reasons_excluded": sorted(wanted),
        "removed_ids": table.loc[hit, id_column].astype(str).tolist(),
    }
    return table[~hit].reset_index(drop=True), removed
