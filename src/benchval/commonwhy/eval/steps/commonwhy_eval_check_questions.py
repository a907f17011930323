"""Rule commonwhy_eval_check_questions: the judge check set's questions (seeded, capped per family)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from benchval.commonwhy.eval.judge_check import prepare_check
from benchval.commonwhy.eval.questions import write_questions
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.rule_audit import GroundingQueries

log = logging.getLogger(__name__)


def commonwhy_tables(published: str, constructed: str):
    """The published and the constructed CommonWhy tables (rules commonwhy_published, commonwhy_ground)."""
    from benchval.commonwhy.dataset import read_published
    from benchval.commonwhy.pipeline import read_constructed

    return read_published(published), read_constructed(constructed)


def stage_check_questions(
    published: str,
    constructed: str,
    settings: Mapping,
    seed: int,
    out: str,
    report_out: str,
    rule_queries: str | None = None,
) -> None:
    """The check set's questions (seeded, capped per family), in the sample's layout so that the configured
    models answer them (rule commonwhy_eval_check_answer). `rule_queries`: the rules' grounding queries
    (inference_rule_entities.json), which decide which other rules' causes label pairs (the shared-anchor pool)."""
    cfg = stage_settings(settings, "check_questions")["judge_check"]
    no_label = GroundingQueries(rule_queries).why_no_label if rule_queries else None
    questions, report = prepare_check(*commonwhy_tables(published, constructed), cfg, seed, no_label)
    log.info("judge check questions: %s", report)
    write_questions(questions, [report], out, report_out)
