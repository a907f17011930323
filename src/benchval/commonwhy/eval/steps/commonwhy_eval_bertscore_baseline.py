"""Rule commonwhy_eval_bertscore_baseline: BERTScore's rescaling baseline for the configured encoder."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from pathlib import Path

from benchval.commonwhy.eval import bertscore_baseline
from benchval.commonwhy.eval.metrics import BertScoreSettings
from benchval.commonwhy.eval.stage_keys import stage_settings

log = logging.getLogger(__name__)


def stage_bertscore_baseline(
    settings: Mapping, encoder_dir: str | None, corpus: str, seed: int, out: str, report_out: str
) -> None:
    """The BERTScore rescaling baseline of the configured encoder from random pairs of corpus sentences."""
    bs = stage_settings(settings, "bertscore_baseline")["metrics"]["bertscore"]
    cfg = bs["baseline"]
    sentences, report = bertscore_baseline.corpus_sentences(corpus, cfg["fields"])
    candidates, references = bertscore_baseline.random_pairs(sentences, cfg["n_pairs"], seed)
    started = time.perf_counter()
    table = bertscore_baseline.compute_baseline(candidates, references, BertScoreSettings.from_section(bs, encoder_dir))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out)
    report.update(
        n_pairs=cfg["n_pairs"],
        seed=seed,
        seconds=round(time.perf_counter() - started, 2),
        example_pair=[candidates[0], references[0]],
    )
    Path(report_out).write_text(json.dumps(report, indent=2))
    log.info("BERTScore baseline from %d pairs of %s: %s", cfg["n_pairs"], corpus, table.iloc[-1].to_dict())
