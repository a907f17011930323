"""``snakemake --report`` for a configuration none of whose outputs exist is refused in one line (workflow/Snakefile).

Snakemake otherwise writes a report of a run that never happened: for config/paper.yaml before any paper run,
exit 0, "Report created.", 8 MB and 2,208 missing-metadata warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from benchval.plumbing.command_line import parsed_command_line
from benchval.plumbing.config_error import ConfigError


def report_requested(argv: list[str]) -> str | None:
    """The report file a ``snakemake --report FILE`` command line asks for, else None."""
    args = parsed_command_line(argv)
    return getattr(args, "report", None) if args is not None else None


def check_report_has_outputs(
    argv: list[str], shown: Mapping[str, Iterable[str]], exists: Callable[[str], bool]
) -> None:
    """With ``--report``: each entry of ``shown`` (what -> its files: a study's report figures, a scored model's
    metrics) has at least one file that exists."""
    report = report_requested(argv)
    if report is None:
        return
    missing = [study for study, files in shown.items() if not any(exists(path) for path in files)]
    if missing:
        raise ConfigError(
            f"--report: none of the files of {missing[0]} exists here"
            f"{f' (nor of {len(missing) - 1} more)' if len(missing) > 1 else ''}; run the workflow first "
            f"with the same --configfile (snakemake --cores 2 results/figures), then ask for {report}"
        )
