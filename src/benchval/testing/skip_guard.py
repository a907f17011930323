"""A pytest plugin that fails the run when a test is skipped for a reason not about the machine.

A skip hides a test: on a fresh clone (what CI runs) every test must run, except where the machine
lacks something no test can bring: the shared raw-data mirror, a tool the system installs (WordNet's
man pages, ``zip``, Chromium), a SLURM cluster that cannot start, a GPU. Those reasons
are listed in :data:`MACHINE_REASONS`, each with why; any other skip (a model "not prepared", a
result "not recorded yet") makes the run fail with the skipped tests named, so that a new skip cannot
hide. tests/conftest.py loads the plugin; README.md ("Run the tests") describes it.
"""

from __future__ import annotations

import re

import pytest

# pattern of a skip reason (searched) -> what the machine lacks
MACHINE_REASONS = {
    r"raw-data mirror|shared raw-data mirror|raw CommonWhy files|mirror lacks files": "the shared raw data (../shared)",
    r"lexnames\(5WN\) man page not installed": "WordNet's man pages (a system package)",
    r"'zip' tool is needed": "the zip tool (a system package)",
    r"chromium/chromedriver missing|apt-get install .* failed": "Chromium (a system package, needs root)",
    r"SLURM test cluster (cannot run here|needs)|SLURM packages not installed": "a SLURM test cluster (root, daemons)",
    r"no CUDA device|needs a GPU": "a GPU",
}
FAILED_BY_SKIPS = "skipped for a reason that is not about the machine (benchval.testing.skip_guard)"
_skips: dict[str, str] = {}  # test id -> skip reason, as reports arrive


def skip_reason(report: pytest.TestReport) -> str | None:
    """The reason of a skipped (not xfailed) test's report; None if the report is no skip."""
    if not report.skipped or hasattr(report, "wasxfail"):
        return None
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def unexplained(skips: dict[str, str]) -> dict[str, str]:
    """The skips whose reason matches none of :data:`MACHINE_REASONS`."""
    return {test: why for test, why in skips.items() if not any(re.search(p, why) for p in MACHINE_REASONS)}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    reason = skip_reason(report)
    if reason is not None:
        _skips[report.nodeid] = reason


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: its controller sees every report
        return
    found = unexplained(_skips)
    if not found:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"{len(found)} test(s) {FAILED_BY_SKIPS}:", red=True, bold=True)
        for test, why in sorted(found.items()):
            reporter.write_line(f"  {test}: {why}")
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
