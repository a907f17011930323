"""Lifted rules: a commonsense axiom, the SPARQL that grounds it, and lifted question/answer templates.

Published rules come from ``inference_rule_entities.json`` (dict: rule text -> {sparql, question, answer,
entities}); users can add their own in a YAML file of the same shape, as a list::

    - id: my-visa-rule               # required for user rules, unique
      rule: "If person A is a citizen of Latvia, then ..."
      sparql: "SELECT ?item ?itemLabel WHERE { ... }"   # WDQS dialect welcome
      question: "Why wouldn't person A need a visa ...?"
      answer: "Because person A is a citizen of Latvia ..."
      variables: {"person A": item}  # optional: placeholder phrase -> SPARQL variable
      category: Political            # optional
      domain: Geographical           # optional

Without ``variables`` the placeholder is inferred as in the published templates: a lowercase noun
followed by a one-letter variable (``person A``, ``town A``, ``device D``), bound to ``?item``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from benchval.commonwhy.errors import CommonWhyDataError, RuleError

REQUIRED_FIELDS = ("rule", "sparql", "question", "answer")
DEFAULT_VARIABLE = "item"
_PLACEHOLDER = re.compile(r"(?<![\w])([a-z]+) ([A-Z])(?![\w])")
_SELECT_VARIABLES = re.compile(r"SELECT\s+(?:DISTINCT\s+|REDUCED\s+)?(.*?)\s*(?:WHERE|\{)", re.IGNORECASE | re.DOTALL)


@dataclass
class LiftedRule:
    """One lifted rule and its templates; ``variables`` maps placeholder phrase -> SPARQL variable."""

    id: str
    rule: str
    sparql: str
    question: str
    answer: str
    variables: dict[str, str]
    origin: str = "published"
    category: str | None = None
    domain: str | None = None
    published_entities: list[dict] = field(default_factory=list)

    def instantiate(self, labels: dict[str, str]) -> tuple[str, str]:
        """Fill the templates; ``labels`` maps SPARQL variable -> entity label."""
        return _fill(self.question, self.variables, labels), _fill(self.answer, self.variables, labels)


def _fill(template: str, variables: dict[str, str], labels: dict[str, str]) -> str:
    text = template
    for phrase, variable in sorted(variables.items(), key=lambda kv: -len(kv[0])):
        label = labels[variable]
        text = re.sub(rf"(?<![\w]){re.escape(phrase)}(?![\w])", lambda _, label=label: label, text)
        letter = phrase.split()[-1]
        if len(letter) == 1:  # a bare later mention ("... for A to have made a call", "A's salary")
            text = re.sub(
                rf"(?<=[a-z] ){re.escape(letter)}(?=(?:['’]s)?[\s,.;:?!]|$)", lambda _, label=label: label, text
            )
    return text


def infer_variables(question: str) -> dict[str, str]:
    """Placeholder phrases of a published-style template (``person A`` -> ``item``)."""
    phrases = list(dict.fromkeys(f"{noun} {letter}" for noun, letter in _PLACEHOLDER.findall(question)))
    if len(phrases) > 1:
        return {}  # ambiguous: the caller must name them
    return {phrases[0]: DEFAULT_VARIABLE} if phrases else {}


def selected_variables(sparql: str) -> set[str] | None:
    """Variables of the outermost SELECT clause (None for ``SELECT *`` or when unreadable)."""
    found = _SELECT_VARIABLES.search(sparql)
    if not found or found.group(1).strip() == "*":
        return None
    return set(re.findall(r"[?$](\w+)", found.group(1)))


def validate_rule(rule: LiftedRule) -> LiftedRule:
    """Raise :class:`RuleError` (naming the rule id) when the rule cannot be grounded."""
    for name in REQUIRED_FIELDS:
        value = getattr(rule, name)
        if not isinstance(value, str) or not value.strip():
            raise RuleError(rule.id, f"field {name!r} is missing or empty")
    if not rule.variables:
        raise RuleError(
            rule.id,
            f"no placeholder found in the question template {rule.question!r} "
            "(expected e.g. 'person A'; or give 'variables')",
        )
    selected = selected_variables(rule.sparql)
    for phrase, variable in rule.variables.items():
        if phrase not in rule.question:
            raise RuleError(rule.id, f"placeholder {phrase!r} does not occur in the question template")
        if not re.fullmatch(r"\w+", variable):
            raise RuleError(rule.id, f"variable {variable!r} for {phrase!r} is not a SPARQL variable name")
        if selected is not None and variable not in selected:
            raise RuleError(rule.id, f"the query does not select ?{variable} (needed for {phrase!r})")
    return rule


def _labels(labeled_rules: dict, text: str) -> tuple[str | None, str | None]:
    values = labeled_rules.get(text)
    if not values:
        return None, None
    return values[0], ";".join(values[1:]) or None


def load_labeled_rules(path: Path | str) -> dict[str, list[str]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise CommonWhyDataError(path, None, "expected a JSON object rule -> [category, domain, ...]")
    for key, value in data.items():
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise CommonWhyDataError(path, f"key {key[:60]!r}", "expected a non-empty list of strings")
    return data


def load_published_rules(rule_entities_path: Path | str, labeled_rules: dict | None = None) -> list[LiftedRule]:
    """Rules of ``inference_rule_entities.json`` with ids ``cw001`` ... in file order."""
    path = Path(rule_entities_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise CommonWhyDataError(path, None, "expected a JSON object keyed by rule text")
    rules = []
    for index, (text, entry) in enumerate(data.items(), start=1):
        if not isinstance(entry, dict):
            raise CommonWhyDataError(path, f"key {text[:60]!r}", "expected an object")
        category, domain = _labels(labeled_rules or {}, text)
        rules.append(
            LiftedRule(
                id=f"cw{index:03d}",
                rule=text,
                sparql=entry.get("sparql", ""),
                question=entry.get("question", ""),
                answer=entry.get("answer", ""),
                variables=infer_variables(entry.get("question", "")),
                origin=str(path.name),
                category=category,
                domain=domain,
                published_entities=list(entry.get("entities", [])),
            )
        )
    return rules


def load_user_rules(path: Path | str, labeled_rules: dict | None = None) -> list[LiftedRule]:
    """Rules from a user YAML file (module docstring); every rule is validated."""
    path = Path(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise CommonWhyDataError(path, None, "expected a YAML list of rules")
    rules, seen = [], set()
    for position, entry in enumerate(data, start=1):
        if not isinstance(entry, dict) or not entry.get("id"):
            raise CommonWhyDataError(path, f"rule #{position}", "each rule needs an 'id'")
        rule_id = str(entry["id"])
        unknown = set(entry) - {"id", "rule", "sparql", "question", "answer", "variables", "category", "domain"}
        if unknown:
            raise RuleError(rule_id, f"unknown keys {sorted(unknown)} in {path}")
        if rule_id in seen:
            raise RuleError(rule_id, f"duplicate id in {path}")
        seen.add(rule_id)
        category, domain = _labels(labeled_rules or {}, str(entry.get("rule", "")))
        variables = entry.get("variables") or infer_variables(str(entry.get("question", "")))
        if not isinstance(variables, dict):
            raise RuleError(rule_id, "'variables' must map placeholder phrase -> SPARQL variable")
        rules.append(
            validate_rule(
                LiftedRule(
                    id=rule_id,
                    rule=entry.get("rule", ""),
                    sparql=entry.get("sparql", ""),
                    question=entry.get("question", ""),
                    answer=entry.get("answer", ""),
                    variables={str(k): str(v).lstrip("?$") for k, v in variables.items()},
                    origin=str(path),
                    category=entry.get("category", category),
                    domain=entry.get("domain", domain),
                )
            )
        )
    return rules
