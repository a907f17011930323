"""Rule commonwhy_eval_judge_check: one judge on the check set (verdicts, measures per type, validity)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from benchval.commonwhy.eval.judge import Judge, make_judge
from benchval.commonwhy.eval.judge_check import gate_scores, judge_pairs, judge_validity
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.plumbing.folders import MODELS_DIR

log = logging.getLogger(__name__)


def canaries_passing(path: str | Path | None) -> list[str]:
    """Names of the canary judges that passed the gate (file of rule commonwhy_eval_judge_canaries)."""
    return [v["judge"] for v in json.loads(Path(path).read_text()) if v["valid"]] if path else []


def stage_judge_check(
    check_set: str,
    system: str,
    settings: Mapping,
    models_config: Mapping,
    verdicts_out: str,
    scores_out: str,
    validity_out: str,
    seed: int,
    models_dir: str = MODELS_DIR,
    decision: str | None = None,
    canaries: str | None = None,
) -> dict:
    """One judge on the check set: per-pair verdicts, measures per type with intervals, validity (never valid
    when a canary judge passed the same gate: `canaries`, the file of rule commonwhy_eval_judge_canaries)."""
    settings = stage_settings(settings, "judge_check")
    started = time.perf_counter()
    judge = make_judge(system, settings, models_config, models_dir, decision)
    return check_judge(
        judge,
        system,
        check_set,
        settings,
        seed,
        (verdicts_out, scores_out, validity_out),
        seconds_load=time.perf_counter() - started,
        canaries_passing=canaries_passing(canaries),
    )


def check_judge(
    judge: Judge,
    system: str,
    check_set: str,
    settings: Mapping,
    seed: int,
    outs: tuple[str, str, str],
    seconds_load: float = float("nan"),
    canaries_passing: list[str] = (),
) -> dict:
    """A loaded judge (its current decision) on the check set; `outs`: verdicts, scores, validity paths.
    ``seconds_judge`` counts only the prompts this judge had not scored before (see Judge.margins)."""
    started = time.perf_counter()
    verdicts = judge_pairs(judge, pd.read_parquet(check_set))
    seconds_judge = time.perf_counter() - started
    cfg = settings["judge_check"]
    scores = gate_scores(verdicts, cfg, seed)
    scores.insert(0, "judge", system)
    scores.insert(1, "decision", judge.decision)
    validity = judge_validity(scores, cfg["bar"], system)
    if canaries_passing:
        validity["valid"] = False
        validity["reason"] += f"; the check set cannot separate a judge from canary {', '.join(canaries_passing)}"
    validity.update(
        decision=judge.decision,
        n_pairs=len(verdicts),
        share_yes=float(verdicts["judged_yes"].mean()),
        n_unparsed=int(verdicts["n_unparsed"].sum()),
        seconds_load=round(seconds_load, 2),
        seconds_judge=round(seconds_judge, 2),
    )
    verdicts_out, scores_out, validity_out = outs
    for path in outs:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    verdicts.to_parquet(verdicts_out, index=False)
    scores.to_csv(scores_out, index=False)
    Path(validity_out).write_text(json.dumps(validity, indent=2))
    log.info("judge check: %s", validity["reason"])
    return validity
