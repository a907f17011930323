"""Snakemake script of rule score: one (model, task) -> results/scores/{model}/{task}.parquet."""

import contextlib
import logging
import sys
from pathlib import Path

from benchval.scoring.run import score_task

with open(snakemake.log[0], "w") as log_file, contextlib.redirect_stdout(
    log_file
), contextlib.redirect_stderr(log_file):  # tqdm's progress bar goes to the log too
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True
    )
    try:
        score_task(
            snakemake.input.table,
            Path(snakemake.input.model).parent,
            snakemake.output[0],
            dict(snakemake.params.scoring),
            dict(snakemake.params.model),
            snakemake.params.shard_dir,
            model_name=snakemake.wildcards.model,
            threads=snakemake.threads,
        )
    except Exception:
        logging.getLogger("score").exception("scoring %s on %s failed", snakemake.wildcards.model,
                                             snakemake.wildcards.task)
        raise
