"""Snakemake script of rule prepare_model: one config entry -> resources/models/{model}/."""

import contextlib
import logging
import sys
from pathlib import Path

from benchval.models import prepare_model

model = snakemake.wildcards.model
with (
    open(snakemake.log[0], "w") as log_file,
    contextlib.redirect_stdout(log_file),
    contextlib.redirect_stderr(log_file),  # transformers', pip's and tqdm's output go here too
):
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        force=True,
    )
    try:
        prepare_model(model, dict(snakemake.params.entry), Path(snakemake.output.manifest).parent,
                      lock_path=snakemake.params.model_lock)
    except Exception:
        logging.getLogger("prepare_model").exception("preparing model %r failed", model)
        raise
