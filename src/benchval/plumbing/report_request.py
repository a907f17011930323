"""``snakemake --report`` for a configuration none of whose outputs exist is refused in one line (workflow/Snakefile).

Snakemake otherwise writes a report of a run that never happened: for config/paper.yaml before any paper run,
exit 0, "Report created.", 8 MB and 2,208 missing-metadata warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from benchval.plumbing.command_line import parsed_command_line
from benchval.plumbing.config_error import ConfigError


def report_requested(argv: list[str]) -> str | None:
    """The report file a ``snakemake --report FILE`` command line asks for, else None."""
    args = parsed_command_line(argv)
    return getattr(args, "report", None) if args is not None else None


def check_report_has_outputs(argv: list[str], shown: Iterable[str], exists: Callable[[str], bool]) -> None:
    """With ``--report``: at least one of the files the report shows (``shown``) must exist."""
    report = report_requested(argv)
    shown = list(shown)
    if report is None or not shown or any(exists(path) for path in shown):
        return
    raise ConfigError(
        f"--report: none of the {len(shown)} files a report of this configuration shows exists here "
        f"(e.g. {shown[0]}); run the workflow first with the same --configfile (snakemake --cores 2 "
        f"results/figures), then ask for {report}"
    )
