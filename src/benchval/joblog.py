"""A Snakemake job's log file: where a script's logging, stdout and stderr go.

Either way the log ends with the exception and its traceback when the job fails (Snakemake's error
message points at the log): :func:`job_log` logs it as it propagates, and :func:`log_to_file` installs
a ``sys.excepthook`` that appends an uncaught exception to the log before the usual report on stderr
(a rule's script runs in a Python process of its own).
"""

from __future__ import annotations

import contextlib
import logging
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_to_file(path: str | Path) -> None:
    """Send the script's logging to its job's log file (``snakemake.log[0]``), which is created now,
    so that every declared log exists even when nothing is logged. ``force``: an imported library
    may already have configured the root logger."""
    logging.basicConfig(filename=str(path), level=logging.INFO, format=FORMAT, force=True)
    _log_uncaught_exceptions(Path(path))


def _log_uncaught_exceptions(path: Path) -> None:
    """Append an uncaught exception (with its traceback) to ``path``, then report it as Python does.
    Called again (another log), the hook writes to the new path only."""
    previous = getattr(sys.excepthook, "benchval_previous", sys.excepthook)

    def hook(kind, error, trace):
        try:
            logging.shutdown()  # flush and close the file handler first: the traceback ends the log
            with open(path, "a", encoding="utf-8") as log_file:
                log_file.write("job failed with an uncaught exception:\n")
                traceback.print_exception(kind, error, trace, file=log_file)
        except OSError:
            pass  # the log cannot be written: stderr still gets the traceback
        previous(kind, error, trace)

    hook.benchval_previous = previous
    sys.excepthook = hook


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
