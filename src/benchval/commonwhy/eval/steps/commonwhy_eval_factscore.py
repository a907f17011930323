"""Rule commonwhy_eval_factscore: FActScore of every system's answers against the KG source."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping

import pandas as pd

from benchval.commonwhy.eval.factscore import anchors_about, factscore_summary, factscore_table, reference_factscore
from benchval.commonwhy.eval.kg_claims import KGFactChecker, claim_reading
from benchval.commonwhy.eval.parquet_tables import read_table, write_table
from benchval.commonwhy.eval.stage_keys import stage_settings
from benchval.commonwhy.eval.steps.commonwhy_eval_stage_io import open_kg, read_answers
from benchval.plumbing.folders import MODELS_DIR

log = logging.getLogger(__name__)


def stage_factscore(
    answers: Mapping[str, str],
    judged: Mapping[str, str],
    settings: Mapping,
    models_config: Mapping,
    kg_config: Mapping,
    store: str | None,
    outs: Mapping[str, str],
    models_dir: str = MODELS_DIR,
    questions: str | None = None,
    references_out: str | None = None,
    summary_out: str | None = None,
    use_torch: Callable[[], None] = lambda: None,
) -> None:
    """FActScore of every system's answers against the KG source (one checker, shared caches), each answer's
    claims about its question's entity (the anchors in ``questions``), and of the questions' reference answers
    (``references_out``, per source and split); ``summary_out``: coverage and the three verdicts per system.
    ``use_torch``: called before the LLM that splits claims or names entities is loaded (the job's
    :meth:`~benchval.plumbing.job.Job.use_torch`); the rule-based reading needs no torch."""
    settings = stage_settings(settings, "factscore")
    cfg = settings["factscore"]

    def claim_system():
        use_torch()
        from benchval.generation.systems import make_generator  # noqa: PLC0415  (torch only with an LLM)

        return make_generator(cfg["claim_system"], settings, models_config, models_dir)

    splitter, entity_spans = claim_reading(cfg, claim_system)
    kg = open_kg(kg_config, store)
    checker = KGFactChecker(kg, entity_spans)
    about = None
    if questions:
        table = read_table(questions, ["id", "source", "split", "references", "anchor_qids"], "the questions table")
        about = anchors_about(table, kg)
        table["about"] = table["id"].map(about)
    if questions and references_out:
        summary = reference_factscore(table, checker, splitter)
        summary.to_csv(references_out, index=False)
        log.info("FActScore of the references (the check on the checker):\n%s", summary.to_string(index=False))
    tables = {}
    for system, path in answers.items():
        started = time.perf_counter()
        table = factscore_table(read_answers(path), pd.read_parquet(judged[system]), checker, splitter, about)
        write_table(table, outs[system])
        tables[system] = table
        log.info(
            "FActScore %s: %d answers, %d claims, %d checkable, %d supported, %d without a KG entity (%.1f s)",
            system,
            len(table),
            int(table["n_claims"].sum()),
            int(table["n_checkable"].sum()),
            int(table["n_supported"].sum()),
            int(table["n_unlinked"].sum()),
            time.perf_counter() - started,
        )
    overview = factscore_summary(tables)
    log.info("FActScore per system (coverage and the three verdicts):\n%s", overview.to_string(index=False))
    if summary_out:
        overview.to_csv(summary_out, index=False)
