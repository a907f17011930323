"""No line of Snakemake's console output over 1,000 characters, every folded list saying how many entries it
has and where the whole list is (issue 47 item 6; the ``benchval`` logger plugin,
src/snakemake_logger_plugin_benchval, on through workflow/profiles/default).

Before: a dry run of the default config from nothing printed 58 lines over 1,000 characters (the longest
11,055: a job's ``input:`` of 55 task files, "Missing output files: ..." and "Input files updated by another
job: ..." reasons, the header's ``Config file(s):``, the closing "Reasons:" rule lists).
"""

from __future__ import annotations

import logging
import re

import pytest
from snakemake.logging import DefaultFormatter
from snakemake_interface_logger_plugins.common import LogEvent
from snakemake_logger_plugin_benchval import RERUN_UNFOLDED, FoldingFormatter, LogHandler, LogHandlerSettings
from snakemake_logger_plugin_benchval.folding import LINE_LIMIT, NAME_WIDTH, SHOWN, fold_line

from benchval.plumbing.config import catalogue_files
from benchval.plumbing.folders import REPO_ROOT
from tests.silent.conftest import DryRun

WHERE = "unfolded with X"
FOLDED = re.compile(r"… and (\d+) more \((\d+) in all; ")


def _names(count: int, width: int = 20) -> list[str]:
    return [f"results/{index:0{width - 16}d}.parquet" for index in range(count)]


def _line_of(label: str, length: int) -> str:
    """``label`` and as many 20-character names as give a line of exactly ``length`` characters (padded)."""
    names = _names(1000)
    line = label + ", ".join(names)
    cut = line[:length].rsplit(", ", 1)[0]
    return cut + "x" * (length - len(cut))


def test_a_line_of_the_limit_is_left_as_it_is():
    line = _line_of("    input: ", LINE_LIMIT)
    assert len(line) == LINE_LIMIT and fold_line(line, WHERE) == line


def test_a_line_one_over_the_limit_keeps_its_first_names_and_says_how_many_and_where():
    line = _line_of("    input: ", LINE_LIMIT + 1)
    folded = fold_line(line, WHERE)
    names = line.removeprefix("    input: ").split(", ")
    assert folded.startswith("    input: " + ", ".join(names[:SHOWN]) + ", … and ")
    more, total = map(int, FOLDED.search(folded).groups())
    assert (more, total) == (len(names) - SHOWN, len(names)) and WHERE in folded
    assert len(folded) <= LINE_LIMIT


def test_each_list_of_a_reason_is_folded_on_its_own():
    missing, updated = _names(60), [f"results/tasks/t{index}.meta.json" for index in range(2)]
    line = f"    reason: Missing output files: {', '.join(missing)}; "
    line += f"Input files updated by another job: {', '.join(updated)}"
    folded = fold_line(line, WHERE)
    assert folded == (
        f"    reason: Missing output files: {', '.join(missing[:SHOWN])}, … and 57 more (60 in all; {WHERE}); "
        f"Input files updated by another job: {', '.join(updated)}"
    )


def test_a_single_long_file_name_is_shortened_saying_its_length_and_where_it_is_whole():
    name = "results/" + "a" * 2000 + ".csv"
    folded = fold_line(f"    input: {name}", WHERE)
    assert len(folded) <= LINE_LIMIT and f"[{len(name)} characters]" in folded and WHERE in folded
    shown = folded.removeprefix("    input: ").split(" (")[0]
    assert len(shown) == NAME_WIDTH and shown.startswith("results/aaa") and shown.endswith("aaa.csv")


def test_text_that_is_no_list_is_cut_saying_its_length():
    line = "Error in rule x: " + "the quick brown fox, " * 100
    folded = fold_line(line, WHERE)
    assert len(folded) == LINE_LIMIT and folded.startswith(line[:500])
    assert folded.endswith(f"[cut: the line has {len(line)} characters; {WHERE}]")


def test_a_python_list_keeps_its_brackets():
    line = "  Config file(s): [" + ", ".join(f"'{name}'" for name in _names(80)) + "]"
    assert fold_line(line, WHERE) == (
        "  Config file(s): ['results/0000.parquet', 'results/0001.parquet', 'results/0002.parquet', "
        f"… and 77 more (80 in all; {WHERE})]"
    )


def _job_info(**fields) -> logging.LogRecord:
    job = dict(jobid=7, rule_msg=None, rule_name="score", local=False, input=["a.csv"], output=["b.csv"], log=[])
    job |= dict(benchmark=None, wildcards={"model": "m"}, reason="Missing output files: b.csv", resources={})
    job |= dict(priority=0, threads=1, indent=False, is_checkpoint=False, event=LogEvent.JOB_INFO)
    return logging.makeLogRecord({"msg": " Rule: score", "levelno": logging.INFO, "levelname": "INFO", **job, **fields})


def test_the_formatter_writes_snakemakes_lines_unchanged_up_to_the_limit_and_folds_the_longer_ones():
    ours, snakemakes = FoldingFormatter(set(), False, WHERE), DefaultFormatter(set(), False)
    short = _job_info(input=_names(40))  # a line of 889 characters
    assert ours.format(short) == snakemakes.format(short)
    long = _job_info(input=_names(55), reason=f"Missing output files: {', '.join(_names(55))}")
    lines, theirs = ours.format(long).splitlines(), snakemakes.format(long).splitlines()
    assert max(map(len, lines)) <= LINE_LIMIT < max(map(len, theirs))
    assert [line.split(": ")[0] for line in lines] == [line.split(": ")[0] for line in theirs]  # same lines
    assert sum(f"(55 in all; {WHERE})" in line for line in lines) == 2


class _Settings:
    nocolor, quiet, debug_dag, verbose, show_failed_logs, printshellcmds = True, set(), False, False, False, False

    def __init__(self, dryrun: bool):
        self.dryrun = self.stdout = dryrun


@pytest.mark.parametrize(("unfolded", "folds"), [(False, True), (True, False)])
def test_the_handler_folds_unless_asked_for_snakemakes_lines(unfolded, folds, capsys):
    handler = LogHandler(_Settings(dryrun=True), LogHandlerSettings(unfolded=unfolded))
    handler.emit(_job_info(input=_names(100)))
    printed = capsys.readouterr().out
    assert (RERUN_UNFOLDED in printed) is folds and (max(map(len, printed.splitlines())) > LINE_LIMIT) is not folds


@pytest.fixture(scope="module")
def default_dry_run(tmp_path_factory):
    """One dry run of the default config from nothing, as the README's command plans it (with its profile)."""
    return DryRun(tmp_path_factory.mktemp("long_lines"))(None, "results/figures")


def test_a_dry_run_of_the_default_config_from_nothing_has_no_line_over_the_limit(default_dry_run):
    assert default_dry_run.returncode == 0, default_dry_run.stderr[-3000:]
    lines = (default_dry_run.stdout + default_dry_run.stderr).splitlines()
    longest = max(lines, key=len)
    assert len(longest) <= LINE_LIMIT, f"{len(longest)} characters: {longest[:300]}"
    assert sum(bool(FOLDED.search(line)) for line in lines) >= 10
    [header] = [line for line in lines if line.startswith("  Config file(s): ")]
    catalogue = catalogue_files(REPO_ROOT / "config" / "catalogue")
    assert f"({1 + len(catalogue)} in all; {RERUN_UNFOLDED})" in header, header
    assert any(re.fullmatch(r"total\s+\d+", line) for line in lines)  # Snakemake's job table is still there
