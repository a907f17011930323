"""Rule commonwhy_eval_score: BERTScore, ROUGE-L, BLEU and METEOR of every system's answers."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from benchval.commonwhy.eval import bertscore_baseline
from benchval.commonwhy.eval.metrics import BertScoreSettings, score_answers
from benchval.commonwhy.eval.parquet_tables import write_table
from benchval.commonwhy.eval.questions import read_questions
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import read_answers

log = logging.getLogger(__name__)


def stage_score(
    questions: str,
    answers: Mapping[str, str],
    settings: Mapping,
    encoder_dir: str | None,
    outs: Mapping[str, str],
    baseline: str | None = None,
) -> None:
    """Reference-based metrics of every system's answers (`answers`, `outs`: system -> path); with a
    `baseline` file (LAYER,P,R,F) also the rescaled BERTScores."""
    bs = stage_settings(settings, "score")["metrics"]["bertscore"]
    encoder = BertScoreSettings.from_section(bs, encoder_dir)
    rescaling = bertscore_baseline.read_baseline(baseline, encoder.num_layers) if baseline else None
    sample = read_questions(questions)[["id", "references"]]
    for system, path in answers.items():
        started = time.perf_counter()
        table = read_answers(path).merge(sample, on="id", validate="one_to_one")
        scores = score_answers(table, encoder)
        if rescaling:
            scores = bertscore_baseline.rescale(scores, rescaling)
        write_table(scores, outs[system])
        log.info("scored %s: %d answers in %.1f s", system, len(scores), time.perf_counter() - started)
