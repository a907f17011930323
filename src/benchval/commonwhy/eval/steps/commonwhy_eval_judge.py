"""Rule commonwhy_eval_judge: judge every system's answers, only with a judge that passed its check."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping

import pandas as pd

from benchval.commonwhy.eval.judge import judge_answers, make_judge
from benchval.commonwhy.eval.parquet_tables import write_table
from benchval.commonwhy.eval.questions import read_questions
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import read_answers, read_validity
from benchval.plumbing.folders import MODELS_DIR

log = logging.getLogger(__name__)


def stage_judge(
    questions: str,
    answers: Mapping[str, str],
    settings: Mapping,
    models_config: Mapping,
    outs: Mapping[str, str],
    validity: str,
    models_dir: str = MODELS_DIR,
    use_torch: Callable[[], None] = lambda: None,
) -> None:
    """Judge every system's answers with the judge (loaded once) — only when it passed its check.

    A judge that failed its check is not run: every verdict is missing (``correct`` NA) with the reason, and
    torch is never imported. ``use_torch``: called before the judge's model is loaded (the job's
    :meth:`~benchval.plumbing.job.Job.use_torch`).
    """
    settings = stage_settings(settings, "judge")
    check = read_validity(validity)
    sample = read_questions(questions)
    judge = None
    if check["valid"]:
        use_torch()
        judge = make_judge(check["judge"], settings, models_config, models_dir)
    for system, path in answers.items():
        started = time.perf_counter()
        if judge is None:
            verdicts = read_answers(path)[["id"]].assign(
                correct=pd.NA, n_references=pd.NA, n_yes=pd.NA, n_unparsed=pd.NA
            )
            verdicts["correct"] = verdicts["correct"].astype("boolean")
        else:
            verdicts = judge_answers(judge, sample, read_answers(path))
        verdicts.insert(1, "system", system)
        verdicts["judge_valid"] = check["valid"]
        verdicts["judge_note"] = "" if check["valid"] else f"not judged: {check['reason']}"
        write_table(verdicts, outs[system])
        log.info(
            "judged %s: %s in %.1f s",
            system,
            f"{int(verdicts['correct'].sum())}/{len(verdicts)} correct"
            if check["valid"]
            else "not judged (invalid judge)",
            time.perf_counter() - started,
        )
