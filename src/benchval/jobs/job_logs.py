"""Every rule's log and benchmark file, from its name: declared once, here, for the whole workflow.

No rule file writes a ``log:`` or ``benchmark:`` path: each rule file ends with one call of
:func:`add_logs_and_benchmarks` (so that a rule file included on its own, as tests do, has them too), and
each rule that runs a job gets

    logs/<rule>/<wildcards>.log   and   logs/benchmarks/<rule>/<wildcards>.tsv

(``<wildcards>``: the rule's wildcards in the order its first output names them, ``/``-joined; a rule
without wildcards: its own name). A rule's name is written once, after ``rule``; ``snakemake --lint``
sees every rule with both (docs/workflow.md, "Conventions").
"""

from __future__ import annotations

import re
from pathlib import Path

_WILDCARD = re.compile(r"\{\s*(\w+)\s*(?:,[^}]*)?\}")
LOGS = "logs"
BENCHMARKS = "logs/benchmarks"


def ordered_wildcards(patterns) -> list[str]:
    """The wildcard names of ``patterns`` (output paths) in order of first appearance."""
    names: list[str] = []
    for pattern in patterns:
        for name in _WILDCARD.findall(str(pattern)):
            if name not in names:
                names.append(name)
    return names


def job_file_stem(rule_name: str, wildcards: list[str]) -> str:
    """``<rule>/<wildcards>`` (``<rule>/<rule>`` without wildcards), the stem of a job's log and benchmark."""
    return f"{rule_name}/{'/'.join('{' + name + '}' for name in wildcards) or rule_name}"


def log_path(rule_name: str, wildcards: list[str]) -> str:
    return f"{LOGS}/{job_file_stem(rule_name, wildcards)}.log"


def benchmark_path(rule_name: str, wildcards: list[str]) -> str:
    return f"{BENCHMARKS}/{job_file_stem(rule_name, wildcards)}.tsv"


def runs_a_job(rule) -> bool:
    """A rule with a script, shell command or run block (not a target rule such as ``all``)."""
    return not rule.norun and not getattr(rule, "is_handover", False)


_GIVEN: set[int] = set()  # id() of the rules given their files here (a later call leaves them alone)


def add_logs_and_benchmarks(rules, rules_dir: str | Path, path_modifier) -> list[str]:
    """Give every rule of the rule files in ``rules_dir`` (``workflow.current_basedir``) that runs a job its
    log and benchmark file.

    ``rules``: Snakemake's rules (``workflow.rules``; rules of a deploying workflow, defined elsewhere, are
    left alone); ``path_modifier``: ``workflow.modifier.path_modifier`` (a module's prefix applies).
    A rule that declares its own log or benchmark is an error naming it: there is one way. Returns the
    names of the rules given both by this call."""
    rules_dir = Path(str(rules_dir)).resolve()
    given = []
    for rule in rules:
        if id(rule) in _GIVEN or not runs_a_job(rule) or not _defined_in(rule, rules_dir):
            continue
        if rule.log or rule.benchmark:
            raise ValueError(
                f"rule {rule.name} ({rule.snakefile}): declares its own log or benchmark; every rule's come from "
                "benchval.jobs.job_logs (delete the log: and benchmark: directives)"
            )
        wildcards = ordered_wildcards(rule.output)
        rule.log_modifier = rule.benchmark_modifier = path_modifier
        rule.set_log(log_path(rule.name, wildcards))
        rule.benchmark = benchmark_path(rule.name, wildcards)
        _GIVEN.add(id(rule))
        given.append(rule.name)
    return given


def _defined_in(rule, rules_dir: Path) -> bool:
    return Path(str(rule.snakefile)).resolve().parent == rules_dir
