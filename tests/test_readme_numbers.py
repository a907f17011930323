"""The README's measured figures are read from the benchmark outputs they cite, so they cannot go stale."""

from __future__ import annotations

import re

from benchval.plumbing.folders import REPO_ROOT


def test_readme_default_run_time_is_the_benchmark_output():
    output = (REPO_ROOT / "benchmarks/results/bench_default_run.txt").read_text()
    minutes, jobs, rss = re.search(
        r"total: ([\d.]+) min wall .*?, (\d+) jobs, largest job peak RSS ([\d.]+) GB", output
    ).groups()
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme[readme.index("### Measured time of the default run") : readme.index("## What comes out")]
    assert f"**{minutes} min** ({jobs} jobs, peak job RSS\n{rss} GB)" in section, (minutes, jobs, rss)
    assert float(minutes) <= 15, "the default run must stay within 15 minutes from nothing"


def test_readme_side_by_side_times_are_the_benchmark_outputs():
    """The back-to-back timings of issue 22 (old code, new code twice) the README cites, each read from its output."""
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme[readme.index("### Measured time of the default run") : readme.index("## What comes out")]
    minutes = {}
    for name in ("bench_default_run-22-old.txt", "bench_default_run-22-new1.txt", "bench_default_run.txt"):
        output = (REPO_ROOT / "benchmarks/results" / name).read_text()
        minutes[name] = re.search(r"total: ([\d.]+) min wall", output).group(1)
    old, new1, new2 = minutes.values()
    assert f"the code before took {old} min and the code after {new1} and {new2} min" in section.replace("\n", " ")


def test_readme_states_the_newest_default_run_time_and_that_it_misses_the_target():
    """The newest measurement (after issues 33-37) is over 15 minutes: the README says so, with the figure read
    from its output, rather than citing only the last run within the target."""
    output = (REPO_ROOT / "benchmarks/results/bench_default_run-33-37.txt").read_text()
    minutes, jobs = re.search(r"total: ([\d.]+) min wall .*?, (\d+) jobs", output).groups()
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme[readme.index("### Measured time of the default run") : readme.index("## What comes out")]
    assert f"**{minutes} min**, {jobs} jobs" in section.replace("\n", " ")
    if float(minutes) > 15:
        assert "Over its budget" in section
