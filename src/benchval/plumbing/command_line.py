"""What the ``snakemake`` command line asks for, read when the workflow is read: its targets (a target no
rule makes fails in one line) and whether it is a dry run (which writes nothing: benchval.models.lock,
benchval.plumbing.published_folders).

Snakemake itself answers a mistyped target with ``MissingRuleException: No rule to produce X (if you use
input functions ...)`` after building part of the DAG; workflow/Snakefile calls :func:`check_targets` once
every rule is defined, so the message names the target, the closest known targets and what to do
(docs/configuration.md, "Start-up errors"). Snakemake's own parser reads the command line
(:func:`requested_targets`), so a target written after ``--configfile`` never reaches here: Snakemake
reads it as a config file first (the docs' commands put targets before ``--configfile``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path

from benchval.plumbing.config_error import ConfigError


def parsed_command_line(argv: list[str]):
    """Snakemake's own reading of ``argv`` (an argparse namespace), or None where this process is not
    Snakemake's command line (a test calling its API) or is a job of a cluster run (``--target-jobs``)."""
    program = Path(argv[0]) if argv else Path()
    if program.name != "snakemake" and program.as_posix().rpartition("snakemake/")[2] != "__main__.py":
        return None
    from snakemake.cli import get_argument_parser

    args, _ = get_argument_parser().parse_known_args(argv[1:])
    return None if getattr(args, "target_jobs", None) else args


def requested_targets(argv: list[str]) -> list[str]:
    """The targets of a ``snakemake`` command line (none for --report, a cluster job, or no command line)."""
    args = parsed_command_line(argv)
    if args is None or getattr(args, "report", None):
        return []
    return list(args.targets or [])


def plans_jobs(argv: list[str]) -> bool:
    """True for the command line's own run or dry run (not a cluster job, a --report, an API call)."""
    args = parsed_command_line(argv)
    return args is not None and not getattr(args, "report", None)


def is_dry_run(argv: list[str]) -> bool:
    """True for ``snakemake -n`` / ``--dry-run`` (and --list-params-changes and the like, which plan only)."""
    args = parsed_command_line(argv)
    if args is None:
        return False
    plans_only = ("dryrun", "list_params_changes", "list_code_changes", "list_input_changes", "summary", "dag")
    return any(getattr(args, name, None) for name in plans_only)


def target_problem(
    target: str, rule_names: Iterable[str], fixed_outputs: Iterable[str], producible: Callable[[str], bool]
) -> str | None:
    """The one-line message for ``target``, or None where a rule makes it (or it is a rule's name)."""
    names = set(rule_names)
    if target in names or producible(target):
        return None
    known = sorted(names | set(fixed_outputs))
    closest = difflib.get_close_matches(target, known, n=3, cutoff=0.6)
    hint = f"closest: {', '.join(closest)}" if closest else "e.g. results/figures, all, study_<name>"
    return (
        f"target {target!r}: no rule makes it ({hint}); a target is a rule name or a file a rule writes "
        "(docs/workflow.md, 'The chain'); put targets before --configfile, which reads every word after it as a "
        "config file"
    )


def check_targets(
    targets: list[str], rule_names: Iterable[str], fixed_outputs: Iterable[str], producible: Callable[[str], bool]
) -> None:
    """Raise :class:`ConfigError` with :func:`target_problem`'s line for the first target no rule makes."""
    rule_names, fixed_outputs = list(rule_names), list(fixed_outputs)
    for target in targets:
        problem = target_problem(target, rule_names, fixed_outputs, producible)
        if problem:
            raise ConfigError(problem)
