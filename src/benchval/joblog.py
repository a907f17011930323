"""A Snakemake job's log file: where a script's logging, stdout and stderr go."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_to_file(path: str | Path) -> None:
    """Send the script's logging to its job's log file (``snakemake.log[0]``), which is created now,
    so that every declared log exists even when nothing is logged. ``force``: an imported library
    may already have configured the root logger."""
    logging.basicConfig(filename=str(path), level=logging.INFO, format=FORMAT, force=True)


@contextlib.contextmanager
def job_log(path: str | Path, what: str) -> Iterator[None]:
    """Send logging, stdout and stderr (tqdm's progress bars too) to ``path``; log a failure of ``what``
    with its traceback there before it propagates (Snakemake then names the log)."""
    with open(path, "w") as log_file, contextlib.redirect_stdout(log_file), contextlib.redirect_stderr(log_file):
        logging.basicConfig(level=logging.INFO, stream=sys.stderr, force=True, format=FORMAT)
        try:
            yield
        except Exception:
            logging.getLogger("benchval.job").exception("%s failed", what)
            raise
