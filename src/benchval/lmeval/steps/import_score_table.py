"""Rule ``import_score_table`` (workflow/scripts/import_score_table.py): an imported study's ``score_table.csv``
and ``tasks.csv``, from its ``source`` (``csv``: :mod:`benchval.analysis.importers`; ``lm_eval``:
:mod:`benchval.lmeval.results`), re-read with the validating readers."""

from __future__ import annotations

import logging
from pathlib import Path

from benchval.analysis.importers import import_csv, round_scores
from benchval.analysis.study_import import StudyImportError
from benchval.analysis.study_table import read_score_table, read_tasks
from benchval.analysis.study_vocabulary import apply_vocabulary
from benchval.evaluation.score_table import validate_score_table
from benchval.lmeval.results import import_lm_eval

log = logging.getLogger(__name__)

IMPORTERS = {"csv": import_csv, "lm_eval": import_lm_eval}


def import_study(
    study_name: str, study: dict, mirror: str | Path | None, score_table_csv: str | Path, tasks_csv: str | Path
) -> None:
    """Import one study and write both files; re-read them with the validating readers."""
    source = study.get("source")
    if source not in IMPORTERS:
        raise StudyImportError(
            f"study {study_name!r}: source {source!r} is not importable (one of {sorted(IMPORTERS)})"
        )
    scores, tasks = IMPORTERS[source](study_name, study, mirror)
    tasks = apply_vocabulary(study_name, study, tasks)  # the study's own roles and axes
    if study.get("round_digits") is not None:
        scores = round_scores(scores, int(study["round_digits"]), study_name)
    validate_score_table(scores, f"study {study_name!r}")
    scored = set(scores["task"])  # once: a set per task made the import quadratic (issue 42)
    no_scores = [t for t in tasks["task"] if t not in scored]
    tasks.loc[tasks["task"].isin(no_scores), "unavailable"] = "no score in the imported source"
    for path in (score_table_csv, tasks_csv):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    scores.sort_values(["model", "task", "metric"]).to_csv(score_table_csv, index=False)  # full precision
    tasks.to_csv(tasks_csv, index=False)
    read_tasks(tasks_csv)
    read_score_table(score_table_csv)
    log.info(
        "study %s: wrote %d scores (%d models, %d tasks) to %s",
        study_name,
        len(scores),
        scores["model"].nunique(),
        scores["task"].nunique(),
        score_table_csv,
    )
