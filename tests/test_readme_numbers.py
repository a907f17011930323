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
