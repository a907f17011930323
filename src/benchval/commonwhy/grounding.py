"""Grounding (paper section 3.2.2): run each rule's query on a KG source and fill its templates.

For every rule the grounding report records the rows returned, the questions built and, when a rule
yields nothing, why: the query failed to parse, it needs a WDQS-only feature, the KG lacks a property
or a constant entity the query requires, the query found no matching entities, or every match lacked
a label.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from benchval.commonwhy.kg.source import EndpointError, KGSource, QuerySyntaxError, QueryTimeoutError, Term
from benchval.commonwhy.rules import LiftedRule, validate_rule
from benchval.commonwhy.wdqs_dialect import WdqsFeatureError, referenced_entities, referenced_properties

# Statuses of a rule whose queries failed (not an answer about the KG): a build with one of them is
# incomplete (benchval.commonwhy.pipeline.IncompleteBuild) unless commonwhy.allow_partial is set.
FAILED_STATUSES = ("timeout", "endpoint_error")
STATUSES = (
    "grounded",
    "parse_error",
    "unsupported_feature",
    "missing_property",
    "missing_entity",
    "no_match",
    "no_labels",
    "timeout",
    "endpoint_error",
)


@dataclass
class GroundedQuestion:
    """One instantiated question with its template answer and anchor entities."""

    question_id: str
    rule_id: str
    question: str
    answer: str
    anchor_qids: list[str]
    anchor_labels: list[str]
    anchor_variables: list[str]


@dataclass
class GroundingRow:
    """One line of grounding_report.csv."""

    rule_id: str
    rule: str
    origin: str
    status: str
    reason: str = ""
    rows_returned: int = 0
    questions_built: int = 0
    rows_without_entity: int = 0
    rows_without_label: int = 0
    duplicate_questions: int = 0
    missing_properties: str = ""
    missing_entities: str = ""
    published_entities: int = 0
    published_entities_found: int = 0
    seconds: float = 0.0


@dataclass
class _Diagnosis:
    """Caches what a source has, so the per-rule checks ask each thing once."""

    source: KGSource
    properties: dict[str, bool] = field(default_factory=dict)
    entities: dict[str, bool] = field(default_factory=dict)

    def missing_properties(self, sparql: str) -> list[str]:
        for pid in referenced_properties(sparql, required_only=True):
            if pid not in self.properties:
                self.properties[pid] = self.source.has_property(pid)
        return sorted(
            (p for p in referenced_properties(sparql, required_only=True) if not self.properties[p]),
            key=lambda p: int(p[1:]),
        )

    def missing_entities(self, sparql: str) -> list[str]:
        for qid in referenced_entities(sparql):
            if qid not in self.entities:
                self.entities[qid] = self.source.ask(f"ASK {{ {{ wd:{qid} ?p ?o . }} UNION {{ ?s ?p wd:{qid} . }} }}")
        return sorted((q for q in referenced_entities(sparql) if not self.entities[q]), key=lambda q: int(q[1:]))


def _label(row: dict[str, Term], variable: str, qid: str, source: KGSource) -> str | None:
    term = row.get(f"{variable}Label")
    if term is not None and term.kind == "literal" and term.value and term.value != qid:
        return term.value
    return source.label(qid)


def _build(
    rule: LiftedRule, rows: list[dict[str, Term]], source: KGSource, report: GroundingRow
) -> list[GroundedQuestion]:
    questions: dict[str, GroundedQuestion] = {}
    variables = list(dict.fromkeys(rule.variables.values()))
    for row in rows:
        qids = [row[v].qid if v in row else None for v in variables]
        if any(qid is None or not qid.startswith("Q") for qid in qids):
            report.rows_without_entity += 1
            continue
        labels = [_label(row, v, qid, source) for v, qid in zip(variables, qids)]
        if any(label is None for label in labels):
            report.rows_without_label += 1
            continue
        question, answer = rule.instantiate(dict(zip(variables, labels)))
        question_id = f"{rule.id}-{'-'.join(qids)}"
        if question_id in questions or any(q.question == question for q in questions.values()):
            report.duplicate_questions += 1
            continue
        questions[question_id] = GroundedQuestion(question_id, rule.id, question, answer, qids, labels, variables)
    return list(questions.values())


def _explain_empty(rule: LiftedRule, report: GroundingRow, diagnosis: _Diagnosis) -> None:
    missing_properties = diagnosis.missing_properties(rule.sparql)
    missing_entities = diagnosis.missing_entities(rule.sparql)
    report.missing_properties = ";".join(missing_properties)
    report.missing_entities = ";".join(missing_entities)
    if missing_properties:
        report.status = "missing_property"
        report.reason = f"property not in this KG: {', '.join(missing_properties)}"
    elif missing_entities:
        report.status = "missing_entity"
        report.reason = f"entity named by the query not in this KG: {', '.join(missing_entities)}"
    else:
        report.status = "no_match"
        report.reason = "no entity in this KG satisfies the query"


def _outcome(
    rule: LiftedRule, rows: list[dict[str, Term]], source: KGSource, report: GroundingRow, diagnosis: _Diagnosis
) -> list[GroundedQuestion]:
    """The questions of a rule's rows (labels looked up), and why there are none when there are none."""
    report.rows_returned = len(rows)
    questions = _build(rule, rows, source, report)
    report.questions_built = len(questions)
    if not rows:
        _explain_empty(rule, report, diagnosis)
    elif not questions:
        report.status = "no_labels"
        report.reason = (
            f"{report.rows_without_entity} rows bind no entity, {report.rows_without_label} entities have no label"
        )
    return questions


def ground_rule(
    rule: LiftedRule, source: KGSource, diagnosis: _Diagnosis | None = None
) -> tuple[list[GroundedQuestion], GroundingRow]:
    """Ground one rule. Malformed rules raise :class:`RuleError`; query failures are reported."""
    validate_rule(rule)
    diagnosis = diagnosis or _Diagnosis(source)
    report = GroundingRow(
        rule.id, rule.rule, rule.origin, status="grounded", published_entities=len(rule.published_entities)
    )
    started = time.perf_counter()
    try:
        rows = source.query(rule.sparql)
    except QuerySyntaxError as error:
        report.status, report.reason = "parse_error", f"query failed to parse: {_one_line(error)}"
        rows = None
    except WdqsFeatureError as error:
        report.status, report.reason = "unsupported_feature", f"cannot run on a standard SPARQL engine: {error}"
        rows = None
    except QueryTimeoutError as error:
        report.status, report.reason = "timeout", _one_line(error)
        rows = None
    except EndpointError as error:
        report.status, report.reason = "endpoint_error", _one_line(error)
        rows = None
    questions: list[GroundedQuestion] = []
    if rows is not None:
        try:
            questions = _outcome(rule, rows, source, report, diagnosis)
        except (QuerySyntaxError, QueryTimeoutError, EndpointError) as error:  # a label or diagnosis query
            timed_out = isinstance(error, QueryTimeoutError)
            report.status = "timeout" if timed_out else "endpoint_error"
            report.reason = f"a label or diagnosis query failed: {_one_line(error)}"
            questions = []
    published = {entity.get("qid") for entity in rule.published_entities}
    report.published_entities_found = sum(1 for q in questions if set(q.anchor_qids) & published)
    report.seconds = round(time.perf_counter() - started, 4)
    return questions, report


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:300]


def ground_rules(
    rules: list[LiftedRule], source: KGSource, progress: bool = False
) -> tuple[list[GroundedQuestion], list[dict]]:
    """Ground every rule; returns all questions and the report rows (as dicts, in rule order)."""
    diagnosis = _Diagnosis(source)
    iterator = rules
    if progress:
        from tqdm import tqdm

        iterator = tqdm(rules, desc=f"grounding on {source.name}", unit="rule")
    questions, rows = [], []
    for rule in iterator:
        built, report = ground_rule(rule, source, diagnosis)
        questions.extend(built)
        rows.append(asdict(report))
    return questions, rows
