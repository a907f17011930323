"""The analysis as a chain of steps, one Snakemake rule each (workflow/rules/analysis.smk).

A statistic step (benchval.analysis.outputs.STEP_TABLES) reads the study, computes its tables
for every metric and writes them: tables with p-values to ``unadjusted/`` (the FDR step adjusts
them together and writes them to ``tables/``), the others to ``tables/``. A figure step reads the
tables it draws. Each step gets only the ``analysis:`` keys it reads (STEP_SETTINGS), through
:class:`StepSettings`, which fails on any other setting instead of silently using a default.

This module imports no statistic, so that a change to one statistic's module reruns only its step
(each rule depends on the modules its script imports; benchval.jobs.reruns).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from pathlib import Path
from typing import Callable

import pandas as pd

from benchval.analysis.outputs import SETTING_FIELDS, STEP_TABLES, TESTED_TABLES
from benchval.analysis.settings import AnalysisSettings, settings_from_config
from benchval.analysis.study_table import StudyTable, load_study

log = logging.getLogger(__name__)

#: final tables, like the intermediate (unadjusted) ones, are written at full precision: pandas writes
#: each float's shortest repr, which reads back as the same float (a statistic equal to its reference to
#: 1e-9 stays so in the CSV; ``"%.10g"`` used to cut it to 10 significant digits)
FINAL_FLOAT_FORMAT = None


class StepSettings:
    """The settings one step may read; any other field raises (its rule does not pass that key)."""

    def __init__(self, settings: AnalysisSettings, keys, step: str):
        self._settings, self._step = settings, step
        self._fields = {field for key in keys for field in SETTING_FIELDS.get(key, (key,))}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._fields:
            raise AttributeError(
                f"analysis step {self._step!r} reads settings.{name}, but its rule does not pass that key: add "
                f"it to STEP_SETTINGS / FIGURE_SETTINGS in benchval/analysis/outputs.py"
            )
        return getattr(self._settings, name)


def step_settings(section: dict | None, keys, step: str) -> StepSettings:
    """Settings from the step's part of the ``analysis:`` section (the rule passes only ``keys``)."""
    section = dict(section or {})
    extra = sorted(set(section) - set(keys))
    if extra:
        raise ValueError(f"analysis step {step!r} was given keys {extra} it does not declare (declared: {list(keys)})")
    return StepSettings(settings_from_config(section), keys, step)


def study_metrics(study: StudyTable, settings, source: str | Path) -> list[str]:
    """The study's metrics in report order (``analysis.metrics`` when set); never empty."""
    metrics = [m for m in study.metrics if not settings.metrics or m in settings.metrics]
    if not metrics:  # no scores at all: still write every output, each statistic missing with its reason
        metrics = list(settings.metrics) or ["accuracy"]
        log.warning(
            "%s: no scores for metric(s) %s (table has %s); every statistic will be reported missing",
            source,
            metrics,
            study.metrics,
        )
    return metrics


def per_metric(
    study: StudyTable, metrics: list[str], compute: Callable[[str, pd.DataFrame], dict[str, pd.DataFrame]]
) -> dict[str, pd.DataFrame]:
    """``compute(metric, wide)`` for every metric, each table concatenated over metrics."""
    parts: dict[str, list[pd.DataFrame]] = defaultdict(list)
    for metric in metrics:
        for name, frame in compute(metric, study.wide(metric)).items():
            parts[name].append(frame)
    return {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}


def write_table(frame: pd.DataFrame, out_dir: str | Path, name: str, final: bool) -> Path:
    """``out_dir/tables/<name>.csv`` (final) or ``out_dir/unadjusted/<name>.csv``, both at full precision."""
    path = Path(out_dir) / ("tables" if final else "unadjusted") / f"{name}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, float_format=FINAL_FLOAT_FORMAT)
    return path


def run_step(step: str, compute, score_table_csv, tasks_csv, section: dict | None, out_dir) -> dict[str, pd.DataFrame]:
    """Run statistic step ``step``: ``compute(study, metrics, settings)`` -> its tables, written."""
    from benchval.analysis.outputs import STEP_SETTINGS

    settings = step_settings(section, STEP_SETTINGS[step], step)
    study = load_study(score_table_csv, tasks_csv)
    metrics = study_metrics(study, settings, score_table_csv)
    tables = compute(study, metrics, settings)
    missing = sorted(set(STEP_TABLES[step]) - set(tables))
    if missing:
        raise RuntimeError(f"analysis step {step!r} did not compute tables {missing}")
    for name in STEP_TABLES[step]:
        write_table(tables[name], out_dir, name, final=name not in TESTED_TABLES)
    log.info("step %s: %s", step, {name: len(tables[name]) for name in STEP_TABLES[step]})
    return tables


def read_tables(paths: dict[str, str | Path]) -> dict[str, pd.DataFrame]:
    """{name: table} from {name: csv path}."""
    return {name: pd.read_csv(path) for name, path in paths.items()}
