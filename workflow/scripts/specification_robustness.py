"""Snakemake script: the specification-robustness table and figure of one study
(benchval.analysis.specification)."""

import logging
from collections import defaultdict
from pathlib import Path

from benchval.analysis.figures.drawing import FigureOutput
from benchval.analysis.item_level import Resampling, ScoredTask, rescored
from benchval.analysis.settings import settings_from_config
from benchval.analysis.specification import grid_from_config, robustness_table
from benchval.analysis.specification_figure import figure_specification_curve
from benchval.analysis.study_table import load_study
from benchval.joblog import log_to_file
from benchval.scoring.store import read_scores
from benchval.tasks.items import read_items, read_task_meta

log_to_file(snakemake.log[0])
params, inputs = snakemake.params, snakemake.input
settings = settings_from_config(params.analysis)
study = load_study(inputs.table, inputs.tasks)
metrics = [m for m in study.metrics if not settings.metrics or m in settings.metrics] or ["accuracy"]
grid = grid_from_config(dict(params.grid), params.normalisation, study.tasks.index)
rescore = None
if params.pairs:
    scores = defaultdict(dict)
    for (model, task), path in zip(params.pairs, inputs.scores):
        scores[task][model] = read_scores(path)
    tasks = {}
    for items_path, meta_path in zip(inputs.task_items, inputs.metas):
        meta = read_task_meta(meta_path)
        tasks[meta["task"]] = ScoredTask(read_items(items_path), meta, scores[meta["task"]])
    resampling = Resampling(settings.seed, settings.n_bootstrap, settings.ci_level)

    def rescore(normalisation, calibrate):
        return rescored(study, tasks, normalisation, calibrate, resampling)


table = robustness_table(study, metrics, settings, grid, rescore)
table.to_csv(snakemake.output.table, index=False)
output = FigureOutput(
    Path(snakemake.output.figures[0]).parent,
    settings.figure_formats,
    settings.figure_dpi,
    snakemake.wildcards.study,
    params.notice,
)
figure_specification_curve(table, output)
fragile = table[table["share_agree"] < 1]
logging.info(
    "%s: %d conclusions over grid %s; %d agree in fewer than all specifications",
    snakemake.wildcards.study,
    int(table["main"].fillna("").ne("").sum()),
    grid.values,
    len(fragile),
)
