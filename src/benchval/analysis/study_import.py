"""What every study importer shares (benchval.analysis.importers for CSV, benchval.lmeval.results for lm_eval results,
benchval.lmeval.importer for lm_eval samples): the error, the ``{mirror}`` in a source path, and the
task table. Its own module so that benchval.lmeval can use it without importing the importers that
import benchval.lmeval.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from benchval.evaluation.score_table import TASK_TABLE_COLUMNS
from benchval.plumbing.folders import raw_root


class StudyImportError(ValueError):
    """Bad import configuration or source file; the message names the study, file and key."""


def expand_path(template: str, mirror: str | Path | None) -> Path:
    """Replace ``{mirror}`` in ``template`` by the mirror, or with ``mirror: null`` by the download cache
    resources/data (rule fetch_raw_file downloads a file declared in the catalogue there)."""
    if "{mirror}" in template:
        template = template.replace("{mirror}", str(raw_root(Path(mirror) if mirror is not None else None)))
    return Path(template)


def task_table(tasks: dict) -> pd.DataFrame:
    """``tasks.csv`` frame from a study's task mapping."""
    records = [
        {
            "task": name,
            "role": spec["role"],
            "pairs_with": spec.get("pairs_with") or "",
            "axes": ";".join(spec.get("axes") or []),
            "label": spec.get("label") or name,
            "unavailable": "",
        }
        for name, spec in tasks.items()
    ]
    return pd.DataFrame.from_records(records, columns=list(TASK_TABLE_COLUMNS))
