"""Snakemake script of rules score_model_<model>: one model, all its tasks, loaded once."""

import contextlib
import logging
import sys
from pathlib import Path

from benchval.scoring.run import TaskFiles, score_tasks

tasks = [TaskFiles(*files) for files in zip(snakemake.input.tables, snakemake.output, snakemake.params.shard_dirs)]
with open(snakemake.log[0], "w") as log_file, contextlib.redirect_stdout(
    log_file
), contextlib.redirect_stderr(log_file):  # tqdm's progress bar goes to the log too
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True
    )
    try:
        score_tasks(
            tasks,
            Path(snakemake.input.model).parent,
            dict(snakemake.params.scoring),
            dict(snakemake.params.model),
            model_name=snakemake.params.model_name,
            threads=snakemake.threads,
        )
    except Exception:
        logging.getLogger("score").exception("scoring %s failed", snakemake.params.model_name)
        raise
