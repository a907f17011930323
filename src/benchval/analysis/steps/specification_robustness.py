"""The specification_robustness rule's job (workflow/rules/robustness.smk): every statistic of a study
recomputed under each specification of the grid, as a table and a figure (benchval.analysis.specification).
A scored study is also rescored from its stored item-level scores (no model reruns)."""

from __future__ import annotations

import logging
from collections import defaultdict
from pathlib import Path

import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput
from benchval.analysis.item_level import Resampling, ScoredTask, rescored
from benchval.analysis.settings import settings_from_config
from benchval.analysis.specification import grid_from_config, robustness_table
from benchval.analysis.specification_figure import figure_specification_curve
from benchval.analysis.study_table import StudyTable, load_study
from benchval.scoring.store import read_scores
from benchval.tasks.items import read_items, read_task_meta

log = logging.getLogger(__name__)


def _rescore(study: StudyTable, inputs: dict, pairs: list, resampling: Resampling):
    """``rescore(normalisation, calibrate)`` from the stored scores of ``pairs``; None without any."""
    if not pairs:
        return None
    scores = defaultdict(dict)
    for (model, task), path in zip(pairs, inputs["scores"]):
        scores[task][model] = read_scores(path)
    tasks = {}
    for items_path, meta_path in zip(inputs["task_items"], inputs["metas"]):
        meta = read_task_meta(meta_path)
        tasks[meta["task"]] = ScoredTask(read_items(items_path), meta, scores[meta["task"]])

    def rescore(normalisation, calibrate):
        return rescored(study, tasks, normalisation, calibrate, resampling)

    return rescore


def run_specification_step(
    study_name: str, inputs: dict, params: dict, table_csv: str, figure_dir: str | Path
) -> pd.DataFrame:
    """``inputs``: table, tasks (and task_items, metas, scores for a scored study); ``params``: pairs,
    normalisation, grid, analysis (the whole section), notice."""
    settings = settings_from_config(params["analysis"])
    study = load_study(inputs["table"], inputs["tasks"])
    metrics = [m for m in study.metrics if not settings.metrics or m in settings.metrics] or ["accuracy"]
    grid = grid_from_config(dict(params["grid"]), params["normalisation"], study.tasks.index)
    resampling = Resampling(settings.seed, settings.n_bootstrap, settings.ci_level)
    table = robustness_table(study, metrics, settings, grid, _rescore(study, inputs, params["pairs"], resampling))
    table.to_csv(table_csv, index=False)
    output = FigureOutput(Path(figure_dir), settings.figure_formats, settings.figure_dpi, study_name, params["notice"])
    figure_specification_curve(table, output)
    log.info(
        "%s: %d conclusions over grid %s; %d agree in fewer than all specifications",
        study_name,
        int(table["main"].fillna("").ne("").sum()),
        grid.values,
        int((table["share_agree"] < 1).sum()),
    )
    return table
