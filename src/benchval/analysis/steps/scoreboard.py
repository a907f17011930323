"""The scoreboard rule's job (workflow/rules/scoreboard.smk): read the stored items, scores and metrics of
every (model, task) of a scored study, write the scoreboard table and figure (benchval.analysis.scoreboard).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd

from benchval.analysis.figures.drawing import FigureOutput
from benchval.analysis.rank_resolution import count_separable, scoreboard_ranks
from benchval.analysis.scoreboard import ModelInfo, ScoreboardSettings, model_task_rows, scoreboard_table
from benchval.analysis.scoreboard_figure import figure_scoreboard
from benchval.evaluation.paired import PairedSettings
from benchval.evaluation.paired_inputs import tidy_from_scores
from benchval.evaluation.score_table import commonwhy_scoreboard_rows
from benchval.scoring.store import read_scores
from benchval.tasks.items import read_items, read_task_meta

log = logging.getLogger(__name__)


def run_scoreboard_step(
    study: str, inputs: dict[str, list[str]], params: dict, table_csv: str, figure_dir: str | Path
) -> pd.DataFrame:
    """The scoreboard of ``study``: ``inputs`` (task_items, metas, scores, metrics) and the rule's
    ``params`` (tasks, pairs, models, labels, normalisation, bootstrap, figure_formats, figure_dpi, notice);
    ``inputs["criteria"]`` (the CommonWhy criterion rows and tasks, when the study has them) adds a row per
    model and CommonWhy criterion to the table (not the figure) saying whether the measure entered the study."""
    bootstrap = params["bootstrap"]
    settings = ScoreboardSettings(
        seed=bootstrap["seed"],
        n_bootstrap=bootstrap["n_bootstrap"],
        ci_level=bootstrap["ci_level"],
        normalisation=params["normalisation"],
    )
    tasks = params["tasks"]
    items = {task: read_items(path) for task, path in zip(tasks, inputs["task_items"])}
    metas = {task: read_task_meta(path) for task, path in zip(tasks, inputs["metas"])}
    rows, correct = [], []
    for (model, task), scores_path, metrics_path in zip(params["pairs"], inputs["scores"], inputs["metrics"]):
        spec = params["models"][model]
        info = ModelInfo(model, spec["family"], float(spec["size_b"]))
        task_info = {"name": task, "label": params["labels"][task], "role": metas[task]["role"]}
        scores = read_scores(scores_path)
        rows += model_task_rows(
            info,
            task_info,
            items[task],
            scores,
            metas[task],
            pd.read_csv(metrics_path),
            settings,
            source=f"{metrics_path} / {scores_path}",
        )
        if not (metas[task].get("unavailable") or items[task].empty):
            mode = metas[task]["scoring_mode"]
            correct.append(tidy_from_scores(items[task], scores, mode, settings.normalisation, model, task))
    paired = PairedSettings(settings.seed, settings.n_bootstrap, settings.ci_level)
    items_frame = pd.concat(correct, ignore_index=True) if correct else pd.DataFrame(columns=["task", "source"])
    table = scoreboard_ranks(scoreboard_table(rows), items_frame, paired)
    written = table
    if inputs.get("criteria"):  # CommonWhy criteria: their values and whether each measure entered the study
        rows_csv, tasks_csv = inputs["criteria"]
        criteria = commonwhy_scoreboard_rows(rows_csv, tasks_csv, params["models"]).reindex(columns=table.columns)
        written = pd.concat([table, criteria], ignore_index=True) if len(table) else criteria
    Path(table_csv).parent.mkdir(parents=True, exist_ok=True)
    written.to_csv(table_csv, index=False)
    output = FigureOutput(Path(figure_dir), params["figure_formats"], params["figure_dpi"], study, params["notice"])
    figure_scoreboard(table, output, settings.ci_level)
    _log_rank_resolution(study, table, settings)
    return table


def _log_rank_resolution(study: str, table: pd.DataFrame, settings: ScoreboardSettings) -> None:
    """Per metric, how many adjacent pairs of the ranking are separable, and the table's size, in the job's log."""
    for metric, own in table.groupby("metric"):
        counts = [count_separable(group) for _, group in own.groupby("task")]
        log.info(
            "rank resolution of %s (%s): %d separable adjacent pairs of %d measured (%d in all) over %d tasks",
            study,
            metric,
            *(sum(c[i] for c in counts) for i in range(3)),
            len(counts),
        )
    log.info(
        "scoreboard of %s: %d rows (%d models x %d tasks), settings %s",
        study,
        len(table),
        table["model"].nunique(),
        table["task"].nunique(),
        json.dumps(vars(settings)),
    )
