"""Rule commonwhy_eval_judge_canaries: the rule-based canary judges through the judge's gate."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from benchval.commonwhy.eval.canaries import canary_judges
from benchval.commonwhy.eval.judge_gate import gate_scores, judge_validity
from benchval.commonwhy.eval.stage_keys import stage_settings

log = logging.getLogger(__name__)


def stage_judge_canaries(check_set: str, settings: Mapping, seed: int, scores_out: str, validity_out: str) -> list:
    """The canary judges (benchval.commonwhy.eval.canaries) through the gate; each must fail it."""
    cfg = stage_settings(settings, "judge_canaries")["judge_check"]
    check = pd.read_parquet(check_set)
    tables, verdicts = [], []
    for canary in canary_judges(cfg["canary_overlap_threshold"], seed):
        scores = gate_scores(canary.verdicts(check), cfg, seed)
        scores.insert(0, "judge", canary.name)
        scores.insert(1, "decision", canary.decision)
        tables.append(scores)
        validity = judge_validity(scores, cfg["bar"], canary.name)
        verdicts.append(validity)
        log.info(
            "canary: %s -> %s",
            validity["reason"],
            "PASSES (the check set cannot separate)" if validity["valid"] else "rejected",
        )
    Path(scores_out).parent.mkdir(parents=True, exist_ok=True)
    pd.concat(tables, ignore_index=True).to_csv(scores_out, index=False)
    Path(validity_out).write_text(json.dumps(verdicts, indent=2))
    return verdicts
