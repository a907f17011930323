"""Rule commonwhy_eval_sample: the seeded question sample."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from benchval.commonwhy.eval.questions import sample_questions, write_questions
from benchval.commonwhy.eval.stage_keys import stage_settings

log = logging.getLogger(__name__)


def stage_sample(
    published: str | None, constructed: str | None, settings: Mapping, seed: int, out: str, report_out: str
) -> None:
    from benchval.commonwhy.dataset import read_published
    from benchval.commonwhy.pipeline import read_constructed

    cfg = stage_settings(settings, "sample")["sample"]
    sample, report = sample_questions(
        read_published(published) if published else None,
        read_constructed(constructed) if constructed else None,
        {"published": cfg["published"], "constructed": cfg["constructed"]},
        seed,
        method=cfg["method"],
        stratify_by=cfg["stratify_by"],
        exclude_audited=cfg["exclude_audited"],
    )
    for step in report:
        log.info("%s: %d -> %d %s", step["filter"], step["before"], step["after"], step["removed"])
    write_questions(sample, report, out, report_out)
