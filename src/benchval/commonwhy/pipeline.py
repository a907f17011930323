"""The construction run (paper section 3.2): rules -> grounded questions with subgraphs, answers, splits.

Writes ``constructed.parquet`` (one row per grounded question, layout in :data:`CONSTRUCTED_SCHEMA`),
``grounding_report.csv`` (one row per rule, see :class:`.grounding.GroundingRow`) and a summary JSON.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from benchval.commonwhy.annotation import merge_answers
from benchval.commonwhy.grounding import FAILED_STATUSES, STATUSES, GroundedQuestion, ground_rules
from benchval.commonwhy.kg.source import KGSource
from benchval.commonwhy.gold_audit import audit_rule
from benchval.commonwhy.rules import LiftedRule, load_labeled_rules, load_published_rules, load_user_rules
from benchval.commonwhy.splits import assign_splits
from benchval.commonwhy.subgraph import supporting_facts

log = logging.getLogger(__name__)

_QUALIFIER = pa.struct(
    [("property", pa.string()), ("property_label", pa.string()), ("value", pa.string()), ("value_label", pa.string())]
)
FACT_TYPE = pa.struct(
    [
        ("subject", pa.string()),
        ("subject_label", pa.string()),
        ("property", pa.string()),
        ("property_label", pa.string()),
        ("value", pa.string()),
        ("value_kind", pa.string()),
        ("value_datatype", pa.string()),
        ("value_label", pa.string()),
        ("qualifiers", pa.list_(_QUALIFIER)),
    ]
)
CONSTRUCTED_SCHEMA = pa.schema(
    [
        ("question_id", pa.string()),
        ("rule_id", pa.string()),
        ("rule", pa.string()),
        ("origin", pa.string()),
        ("reasoning_category", pa.string()),
        ("domain", pa.string()),
        ("question", pa.string()),
        ("answers", pa.list_(pa.string())),
        ("template_answer", pa.string()),
        ("anchor_qids", pa.list_(pa.string())),
        ("anchor_labels", pa.list_(pa.string())),
        ("popularity", pa.int64()),
        ("split", pa.string()),
        ("subgraph", pa.list_(FACT_TYPE)),
        ("n_facts", pa.int64()),
        ("kg_source", pa.string()),
        ("audit_reasons", pa.list_(pa.string())),
    ]
)


def load_rules(
    rule_entities: Path | str, labeled_rules: Path | str | None = None, user_rules: Path | str | None = None
) -> list[LiftedRule]:
    """Published rules plus the user's (ids must not collide)."""
    labels = load_labeled_rules(labeled_rules) if labeled_rules else {}
    rules = load_published_rules(rule_entities, labels)
    if user_rules:
        extra = load_user_rules(user_rules, labels)
        clash = {r.id for r in rules} & {r.id for r in extra}
        if clash:
            raise ValueError(f"{user_rules}: rule ids already used by the published rules: {sorted(clash)}")
        rules += extra
    return rules


def _question_rows(
    questions: list[GroundedQuestion], rules: dict[str, LiftedRule], source: KGSource, progress: bool
) -> list[dict]:
    iterator = questions
    if progress:
        from tqdm import tqdm

        iterator = tqdm(questions, desc="subgraphs", unit="question")
    popularity_of: dict[str, int] = {}
    rows = []
    for question in iterator:
        rule = rules[question.rule_id]
        facts = [fact.to_record() for fact in supporting_facts(question, rule, source)]
        for qid in question.anchor_qids:
            if qid not in popularity_of:
                popularity_of[qid] = source.triple_count(qid)
        rows.append(
            {
                "question_id": question.question_id,
                "rule_id": rule.id,
                "rule": rule.rule,
                "origin": rule.origin,
                "reasoning_category": rule.category,
                "domain": rule.domain,
                "question": question.question,
                "template_answer": question.answer,
                "anchor_qids": question.anchor_qids,
                "anchor_labels": question.anchor_labels,
                "popularity": min(popularity_of[qid] for qid in question.anchor_qids),
                "subgraph": facts,
                "n_facts": len(facts),
                "kg_source": source.name,
                # the rule's query against its own template (benchval.commonwhy.gold_audit); [] = matches or
                # not of a kind the audit reads
                "audit_reasons": audit_rule(rule.rule, rule.sparql) or [],
            }
        )
    return rows


class IncompleteBuild(RuntimeError):
    """Some rules' queries failed (timeout, endpoint error) and ``commonwhy.allow_partial`` is not set."""


def check_complete(report_rows: list[dict], source: KGSource, allow_partial: bool) -> list[str]:
    """The ids of the rules whose queries failed; :class:`IncompleteBuild` if there are any and
    ``allow_partial`` is false (nothing is written then, and the rerun asks only what is not cached)."""
    failed = [row for row in report_rows if row["status"] in FAILED_STATUSES]
    if failed and not allow_partial:
        shown = "; ".join(f"{row['rule_id']} ({row['status']}: {row['reason'][:150]})" for row in failed[:10])
        more = f"; and {len(failed) - 10} more" if len(failed) > 10 else ""
        raise IncompleteBuild(
            f"{len(failed)} of {len(report_rows)} rules failed on {source.name}: {shown}{more}. Nothing is "
            f"written; the answers that came back are cached, so a plain rerun asks only for the failed "
            f"ones. Set commonwhy.allow_partial: true to write the outputs without them."
        )
    return [row["rule_id"] for row in failed]


def construct(
    rules: list[LiftedRule],
    source: KGSource,
    annotation_files: list[Path | str] | None = None,
    progress: bool = False,
    allow_partial: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Run grounding, subgraphs, answer merge and splits; returns (questions, report, summary).

    A rule whose queries failed fails the build (:func:`check_complete`) unless ``allow_partial``."""
    questions, report_rows = ground_rules(rules, source, progress=progress)
    failed = check_complete(report_rows, source, allow_partial)
    table = pd.DataFrame(
        _question_rows(questions, {r.id: r for r in rules}, source, progress),
        columns=[f.name for f in CONSTRUCTED_SCHEMA if f.name not in ("answers", "split")],
    )
    answers, merge_report = merge_answers(
        dict(zip(table["question_id"], table["template_answer"])), list(annotation_files or [])
    )
    table["answers"] = [answers[qid] for qid in table["question_id"]]
    table["split"] = assign_splits(table) if len(table) else pd.Series(dtype="object")
    table = table[[f.name for f in CONSTRUCTED_SCHEMA]]
    report = pd.DataFrame(report_rows)
    status_counts = report["status"].value_counts().reindex(list(STATUSES), fill_value=0)
    summary = {
        "kg_source": source.name,
        "rules_total": len(rules),
        "rules_by_status": {k: int(v) for k, v in status_counts.items()},
        "rules_grounded": int(status_counts["grounded"]),
        "rules_failed": len(failed),
        "rules_failed_ids": failed,
        "partial": bool(failed),
        "questions_built": int(len(table)),
        "questions_by_split": {k: int(v) for k, v in table["split"].value_counts().items()},
        "facts_total": int(table["n_facts"].sum()) if len(table) else 0,
        "questions_without_facts": int((table["n_facts"] == 0).sum()) if len(table) else 0,
        "annotation": asdict(merge_report),
        "questions_flagged_by_gold_audit": int(table["audit_reasons"].map(bool).sum()) if len(table) else 0,
    }
    return table, report, summary


def write_outputs(
    table: pd.DataFrame,
    report: pd.DataFrame,
    summary: dict,
    constructed: Path | str,
    report_csv: Path | str,
    summary_json: Path | str,
) -> None:
    # no question at all (nothing grounded): pandas cannot type empty list columns, so write the schema's empty table
    arrow = (
        pa.Table.from_pandas(table, schema=CONSTRUCTED_SCHEMA, preserve_index=False)
        if len(table)
        else CONSTRUCTED_SCHEMA.empty_table()
    )
    arrow = arrow.replace_schema_metadata({b"commonwhy_summary": json.dumps(summary).encode("utf-8")})
    for path in (constructed, report_csv, summary_json):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(arrow, constructed)
    report.to_csv(report_csv, index=False)
    Path(summary_json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


def read_constructed(path: Path | str) -> pd.DataFrame:
    """Read constructed.parquet, checking it has the documented columns."""
    table = pq.read_table(path)
    missing = [f.name for f in CONSTRUCTED_SCHEMA if f.name not in table.column_names]
    if missing:
        raise ValueError(f"{path}: not a constructed CommonWhy table (missing columns {missing})")
    return table.to_pandas()
