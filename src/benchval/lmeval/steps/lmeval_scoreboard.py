"""Rule lmeval_scoreboard (workflow/rules/lmeval.smk): the scoreboard (table and figure) and the paired
comparisons of an lm-eval study with ``samples:``, from its samples files, as a scored study gets them from its
scores (rules scoreboard and paired_comparisons). Every number is counted from the predictions the study's score
table is counted from (benchval.lmeval.importer.study_predictions), so that a run has one accuracy."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput
from benchval.analysis.rank_resolution import scoreboard_ranks
from benchval.analysis.scoreboard import ModelInfo, ScoreboardSettings, prediction_rows, scoreboard_table
from benchval.analysis.scoreboard_figure import figure_scoreboard
from benchval.evaluation.paired import PairedSettings, paired_table
from benchval.evaluation.paired_inputs import tidy_from_predictions
from benchval.lmeval.importer import study_metrics, study_predictions

log = logging.getLogger(__name__)


def _task_info(study: dict, task: str) -> dict:
    spec = study["tasks"][task]
    return {"name": task, "label": spec.get("label") or task, "role": spec["role"]}


def lmeval_scoreboard_frames(
    study_name: str, study: dict, mirror, settings: ScoreboardSettings
) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """(scoreboard rows, tidy item frame, models in the study's order) of every mapped (model, task)."""
    rows, tidy, models = [], [], []
    for model, task, predicted in study_predictions(study_name, study, mirror):
        info = ModelInfo(model["model"], model["family"], float(model["size_b"]))
        metrics = study_metrics(study_name, study, task, predicted)
        rows += prediction_rows(info, _task_info(study, task), predicted, metrics, settings)
        tidy.append(tidy_from_predictions(predicted, info.name, task, source="lm_eval"))
        models += [info.name] if info.name not in models else []
    return scoreboard_table(rows), pd.concat(tidy, ignore_index=True), models


def write_lmeval_scoreboard(study_name: str, params: dict, outputs: dict) -> pd.DataFrame:
    """Write ``outputs['table']`` (scoreboard), the scoreboard figure beside ``outputs['figures'][0]`` and
    ``outputs['paired']`` (every pair of models per task and pooled) of the study ``params['study']``."""
    bootstrap = params["bootstrap"]
    settings = ScoreboardSettings(
        seed=int(bootstrap["seed"]),
        n_bootstrap=int(bootstrap["n_bootstrap"]),
        ci_level=float(bootstrap["ci_level"]),
        normalisation=(params["study"].get("samples") or {}).get("normalisation", "sum"),
    )
    table, items, models = lmeval_scoreboard_frames(study_name, params["study"], params["mirror"], settings)
    paired_settings = PairedSettings(settings.seed, settings.n_bootstrap, settings.ci_level)
    table = scoreboard_ranks(table, items, paired_settings)
    Path(outputs["table"]).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(outputs["table"], index=False)
    figure_dir = Path(outputs["figures"][0]).parent
    output = FigureOutput(figure_dir, params["figure_formats"], params["figure_dpi"], study_name, params["notice"])
    figure_scoreboard(table, output, settings.ci_level)
    pairs = list(itertools.combinations(models, 2))
    paired = paired_table(items, pairs, paired_settings, source=f"study {study_name}")
    paired.to_csv(outputs["paired"], index=False)
    log.info(
        "scoreboard of lm-eval study %s: %d rows (%d models x %d tasks); paired comparisons: %d model pairs",
        study_name,
        len(table),
        len(models),
        table["task"].nunique(),
        len(pairs),
    )
    return table
