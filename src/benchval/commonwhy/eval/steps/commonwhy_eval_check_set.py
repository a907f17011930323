"""Rule commonwhy_eval_check_set: the judge's labelled check set, from the data, the KG and the models' answers."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path

from benchval.commonwhy.eval.check_natural import labels_file, read_natural_labels
from benchval.commonwhy.eval.kg_claims import KGFactChecker
from benchval.commonwhy.eval.judge_check import build_check_set
from benchval.commonwhy.eval.parquet_tables import write_table
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_check_questions import commonwhy_tables
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import open_kg, read_answers
from benchval.commonwhy.rule_audit import GroundingQueries

log = logging.getLogger(__name__)


def stage_check_set(
    published: str,
    constructed: str,
    kg_config: Mapping,
    store: str | None,
    settings: Mapping,
    seed: int,
    out: str,
    report_out: str,
    answers: Mapping[str, str] | None = None,
    rule_queries: str | None = None,
    natural_labels: str | None = None,
) -> None:
    """The judge's labelled check set, from both CommonWhy tables, the KG source and the models' answers to
    the check questions (`answers`: system -> path), labelled by rules (no judge involved) and, for the answers
    labelled blind (`natural_labels`, benchval.commonwhy.eval.check_natural), by those labels. `rule_queries`:
    the rules' grounding queries (inference_rule_entities.json): another rule's cause that its query never tests
    labels no pair (benchval.commonwhy.eval.check_items.audit_other_rules)."""
    cfg = stage_settings(settings, "check_set")["judge_check"]
    kg = open_kg(kg_config, store)
    check, report = build_check_set(
        *commonwhy_tables(published, constructed),
        kg,
        cfg,
        seed,
        model_answers={system: read_answers(path) for system, path in (answers or {}).items()},
        checker=KGFactChecker(kg) if answers else None,
        no_label=GroundingQueries(rule_queries).why_no_label if rule_queries else None,
        natural_labels=read_natural_labels(labels_file(natural_labels)) if natural_labels else None,
    )
    log.info("judge check set: %s", {k: v for k, v in report.items() if k != "left_out"})
    write_table(check, out)
    Path(report_out).write_text(json.dumps(report, indent=2, ensure_ascii=False))
