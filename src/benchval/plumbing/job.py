"""The start of every rule script: ``job = start_job(snakemake)``, its first statement.

One call does what each job needs before its work starts, and hands the library plain values, so that
no module below the rule scripts ever sees Snakemake's objects:

* the job's log file (``log[0]``) receives logging (INFO and up), ``print`` and stderr (tqdm's progress
  bars), and Python's warnings; it exists as soon as the job starts, even when nothing is logged;
* a failure ends the log with the exception and its traceback (Snakemake's error message names the
  log), and still reaches the console;
* ``torch=True`` (model jobs) sets torch's threads to the job's share of the real cores
  (:func:`benchval.plumbing.job_threads.torch_threads`; the share is the job's ``torch_threads`` resource
  where the layout gave it one, else its threads); a job that loads a model only in some runs (the judge
  once its check failed, FActScore without an LLM) passes ``light=False`` instead and calls
  :meth:`Job.use_torch` before its first model, so that otherwise it never imports torch;
* every other job (``light=True``, the default unless ``torch``) runs at ``local.light_job_niceness``
  (:func:`benchval.plumbing.job_threads.lower_priority`): on a 2-core laptop eight light jobs beside two
  model jobs would otherwise take most of the cores from the model jobs, the run's longest chain;
* the returned :class:`Job` holds the params, wildcards and threads as plain dicts, lists, strings and
  numbers, ready to pass on.

``local.model_jobs_at_once`` and ``local.light_job_niceness`` are read from the job's config here, not
passed as params, on purpose: they are execution settings, and changing them must rerun nothing.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchval.plumbing.job_threads import TORCH_THREADS, lower_priority, torch_threads

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@dataclass(frozen=True)
class Job:
    """What a rule script needs of its Snakemake job, as plain values."""

    params: dict[str, Any]
    wildcards: dict[str, str]
    threads: int
    torch_threads: int
    log: Path

    def use_torch(self) -> None:
        """Import torch and give it this job's threads: a model job's first step before its first model
        (``start_job(torch=True)`` does it at once; a job that loads a model only sometimes, later)."""
        import torch  # noqa: PLC0415  (only jobs that load a model pay for importing torch)

        torch.set_num_threads(self.torch_threads)


def plain(value: Any) -> Any:
    """``value`` with Snakemake's Namedlists (and any other mapping or sequence) as plain dicts and lists.

    A Namedlist with names (``params``, ``wildcards``) becomes a dict of its named entries; one without
    names becomes a list."""
    names = getattr(value, "_names", None)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names} if names else [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def start_job(
    snakemake: Any, *, torch: bool = False, light: bool | None = None, warnings_to_console: bool = False
) -> Job:
    """Start the running Snakemake job's script (see the module docstring); returns its :class:`Job`.

    ``light``: run at ``local.light_job_niceness`` (default: every job but a model job; model preparation,
    which the model jobs wait for, passes False). ``warnings_to_console``: benchval's WARNING records also
    go to the console (a task that is skipped, say), besides the log."""
    log = Path(snakemake.log[0])
    _log_to(log, warnings_to_console)
    local = snakemake.config["local"]  # filled with its schema defaults (benchval.plumbing.config.fill_defaults)
    is_light = not torch if light is None else light
    if is_light:
        lower_priority(local["light_job_niceness"])
    share = getattr(getattr(snakemake, "resources", None), TORCH_THREADS, None) or snakemake.threads
    job = Job(
        params=plain(snakemake.params),
        wildcards=plain(snakemake.wildcards),
        threads=int(snakemake.threads),
        torch_threads=torch_threads(share, local["model_jobs_at_once"]),
        log=log,
    )
    if torch:
        job.use_torch()
    return job


def _log_to(path: Path, warnings_to_console: bool) -> None:
    console = sys.__stderr__
    stream = open(path, "w", encoding="utf-8", buffering=1)  # noqa: SIM115  (open for the process's life)
    sys.stdout = sys.stderr = stream
    logging.basicConfig(stream=stream, level=logging.INFO, format=FORMAT, force=True)
    logging.captureWarnings(True)
    if warnings_to_console:
        echo = logging.StreamHandler(console)
        echo.setLevel(logging.WARNING)
        echo.setFormatter(logging.Formatter("benchval %(levelname)s: %(message)s"))
        logging.getLogger("benchval").addHandler(echo)
    _end_log_with_uncaught_exceptions(stream, console)


def _end_log_with_uncaught_exceptions(stream, console) -> None:
    """An uncaught exception is appended, with its traceback, to the log, then reported on the console."""

    def hook(kind, error, trace):
        try:
            logging.shutdown()
            stream.write("job failed with an uncaught exception:\n")
            traceback.print_exception(kind, error, trace, file=stream)
            stream.flush()
        except (OSError, ValueError):
            pass  # the log cannot be written: the console still gets the traceback
        traceback.print_exception(kind, error, trace, file=console)

    sys.excepthook = hook
