"""Every rule's log and benchmark file, written in the rule (as PyPSA-Eur's ``log: logs("...")``)::

    rule analysis_fdr:
        ...
        log:
            logs("analysis_fdr/{study}.log"),
        benchmark:
            benchmarks("analysis_fdr/{study}.tsv")

Each rule that runs a job writes

    logs/<rule>/<wildcards>.log   and   logs/benchmarks/<rule>/<wildcards>.tsv

(``<wildcards>``: the rule's wildcards in the order its first output names them, ``/``-joined; a rule
without wildcards: its own name), where benchmarks/bench_default_run.py reads them. A rule made in a loop
writes its name in an f-string (``logs(f"analysis_{_step}/{{study}}.log")``). tests/test_rule_settings.py
checks every rule against :func:`log_path` and :func:`benchmark_path` (docs/workflow.md, "Conventions").
"""

from __future__ import annotations

import re

_WILDCARD = re.compile(r"\{\s*(\w+)\s*(?:,[^}]*)?\}")
LOGS = "logs"
BENCHMARKS = "logs/benchmarks"


def logs(path: str) -> str:
    """``logs/<path>``: a rule's ``log:`` (``path``: ``<rule>/<wildcards>.log``)."""
    return f"{LOGS}/{path}"


def benchmarks(path: str) -> str:
    """``logs/benchmarks/<path>``: a rule's ``benchmark:`` (``path``: ``<rule>/<wildcards>.tsv``)."""
    return f"{BENCHMARKS}/{path}"


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


def convention_breaks(rule) -> list[str]:
    """What is wrong with a Snakemake rule's log and benchmark (empty: nothing): a rule that runs a job
    has exactly :func:`log_path` and :func:`benchmark_path` of its name and its outputs' wildcards; a
    target rule has neither."""
    if not runs_a_job(rule):
        return [f"rule {rule.name}: a target rule with a log or benchmark"] if rule.log or rule.benchmark else []
    wildcards = ordered_wildcards(rule.output)
    expected = (log_path(rule.name, wildcards), benchmark_path(rule.name, wildcards))
    found = ([_plain(path) for path in rule.log], _plain(rule.benchmark) if rule.benchmark else None)
    if found == ([expected[0]], expected[1]):
        return []
    return [f"rule {rule.name}: log {found[0]} and benchmark {found[1]}, expected {expected[0]} and {expected[1]}"]


def _plain(pattern) -> str:
    """``pattern`` without the wildcard constraints Snakemake writes into it (``{study,[^/]+}`` -> ``{study}``;
    a constraint may hold braces itself: ``{x,[a-z]{2}}`` -> ``{x}``)."""
    plain, depth, constraint = [], 0, False
    for char in str(pattern):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth == 1:
            constraint = True
        if not constraint or (char == "}" and depth == 0):
            plain.append(char)
        if depth == 0:
            constraint = False
    return "".join(plain)


def check_logs_and_benchmarks(rules) -> None:
    """Stop, one line per rule, where a rule's log or benchmark breaks the convention (:func:`convention_breaks`)."""
    breaks = [line for rule in rules for line in convention_breaks(rule)]
    if breaks:
        raise ValueError("benchval.jobs.job_logs: " + "; ".join(breaks))
