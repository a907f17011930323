"""Rule commonwhy_eval_criterion: score-table rows and task rows for the validity analysis."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from benchval.commonwhy.eval import criterion
from benchval.commonwhy.eval.stage_keys import stage_settings

log = logging.getLogger(__name__)


def stage_criterion(results_csv: str, models_config: Mapping, settings: Mapping, rows_out: str, tasks_out: str) -> None:
    cfg = stage_settings(settings, "criterion")["criterion"]
    source, least = cfg["source"], cfg["min_questions"]
    rows = criterion.commonwhy_score_rows(results_csv, models_config, source=source, min_questions=least)
    rows.to_csv(rows_out, index=False)
    tasks = criterion.commonwhy_task_rows(results_csv, models_config, source=source, min_questions=least)
    for row in tasks.itertuples(index=False):
        for metric in criterion.STUDY_MEASURES:
            log.info("%s %s: %s", row.task, metric, getattr(row, f"{metric}_status"))
    tasks.to_csv(tasks_out, index=False)
