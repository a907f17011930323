"""Snakemake script: the scoreboard table and figure of one scored study (benchval.analysis.scoreboard)."""

import json
import logging
from pathlib import Path

import pandas as pd

from benchval.analysis.scoreboard import (
    ModelInfo,
    ScoreboardSettings,
    model_task_rows,
    scoreboard_table,
)
from benchval.analysis.figures.drawing import FigureOutput
from benchval.analysis.scoreboard_figure import figure_scoreboard
from benchval.joblog import log_to_file
from benchval.scoring.store import read_scores
from benchval.tasks.items import read_items, read_task_meta

log_to_file(snakemake.log[0])
params = snakemake.params
settings = ScoreboardSettings(
    seed=params.bootstrap["seed"],
    n_bootstrap=params.bootstrap["n_bootstrap"],
    ci_level=params.bootstrap["ci_level"],
    normalisation=params.normalisation,
)
items = {task: read_items(path) for task, path in zip(params.tasks, snakemake.input.task_items)}
metas = {task: read_task_meta(path) for task, path in zip(params.tasks, snakemake.input.metas)}
rows = []
for (model, task), scores_path, metrics_path in zip(params.pairs, snakemake.input.scores, snakemake.input.metrics):
    spec = params.models[model]
    info = ModelInfo(model, spec["family"], float(spec["size_b"]))
    task_info = {"name": task, "label": params.labels[task], "role": metas[task]["role"]}
    rows += model_task_rows(
        info,
        task_info,
        items[task],
        read_scores(scores_path),
        metas[task],
        pd.read_csv(metrics_path),
        settings,
        source=f"{metrics_path} / {scores_path}",
    )
table = scoreboard_table(rows)
Path(snakemake.output.table).parent.mkdir(parents=True, exist_ok=True)
table.to_csv(snakemake.output.table, index=False)
figure_output = FigureOutput(
    Path(snakemake.output.figures[0]).parent,
    params.figure_formats,
    params.figure_dpi,
    snakemake.wildcards.study,
    params.notice,
)
figure_scoreboard(table, figure_output, settings.ci_level)
logging.info(
    "scoreboard of %s: %d rows (%d models x %d tasks), settings %s",
    snakemake.wildcards.study,
    len(table),
    table["model"].nunique(),
    table["task"].nunique(),
    json.dumps(vars(settings)),
)
