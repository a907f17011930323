"""The measured figures of the README and of its timing history (benchmarks/results/HISTORY.md) are read from
the benchmark outputs they cite, so they cannot go stale."""

from __future__ import annotations

import re

from benchval.plumbing.folders import REPO_ROOT

HISTORY = REPO_ROOT / "benchmarks/results/HISTORY.md"
NEWEST_DEFAULT_RUN = REPO_ROOT / "benchmarks/results/bench_default_run-41-53.txt"


def _default_run_section() -> str:
    """HISTORY.md's "Measured time of the default run", its line breaks as spaces."""
    history = HISTORY.read_text()
    section = history[history.index("## Measured time of the default run") :].split("\n## ", 1)[0]
    return " ".join(section.split())


def _total(output_file) -> tuple[str, str]:
    """(minutes, jobs) of a bench_default_run output."""
    return re.search(r"total: ([\d.]+) min wall .*?, (\d+) jobs", output_file.read_text()).groups()


def test_history_default_run_time_is_the_benchmark_output():
    output = (REPO_ROOT / "benchmarks/results/bench_default_run.txt").read_text()
    minutes, jobs, rss = re.search(
        r"total: ([\d.]+) min wall .*?, (\d+) jobs, largest job peak RSS ([\d.]+) GB", output
    ).groups()
    assert f"**{minutes} min** ({jobs} jobs, peak job RSS {rss} GB)" in _default_run_section(), (minutes, jobs, rss)
    assert float(minutes) <= 15, "the last run within the target must be within 15 minutes"


def test_history_side_by_side_times_are_the_benchmark_outputs():
    """The back-to-back timings of issue 22 (old code, new code twice) the history cites, each read from its output."""
    minutes = {}
    for name in ("bench_default_run-22-old.txt", "bench_default_run-22-new1.txt", "bench_default_run.txt"):
        output = (REPO_ROOT / "benchmarks/results" / name).read_text()
        minutes[name] = re.search(r"total: ([\d.]+) min wall", output).group(1)
    old, new1, new2 = minutes.values()
    assert f"the code before took {old} min and the code after {new1} and {new2} min" in _default_run_section()


def test_history_states_the_newest_default_run_time_and_that_it_misses_the_target():
    """The newest measurement (after issues 42-47) is over 15 minutes: the history says so, with the figure read
    from its output, rather than citing only the last run within the target."""
    minutes, jobs = _total(NEWEST_DEFAULT_RUN)
    section = _default_run_section()
    assert f"**{minutes} min**, {jobs} jobs" in section
    if float(minutes) > 15:
        assert "Over its budget" in section


def readme_time_sentence(readme: str) -> str:
    """The README's one sentence on how long the default run takes (its first screen), line breaks as spaces."""
    flat = " ".join(readme[: readme.index("## What comes out")].split())
    return re.search(r"How long it takes: .*?\*\*[\d.]+ min\*\*.*?\.(?=\s|$)", flat).group(0)


def readme_time_problems(sentence: str, minutes: str, jobs: str) -> list[str]:
    """What is wrong with the README's time sentence, given the newest measurement."""
    problems = []
    if f"**{minutes} min**, {jobs} jobs" not in sentence:
        problems.append(f"the sentence does not cite the newest measurement (**{minutes} min**, {jobs} jobs)")
    over = float(minutes) > 15
    if over != ("over its 15-minute budget" in sentence):
        problems.append("the sentence must say 'over its 15-minute budget' exactly when the run is over 15 minutes")
    if "benchmarks/results/HISTORY.md" not in sentence:
        problems.append("the sentence must cite benchmarks/results/HISTORY.md")
    return problems


def test_readme_first_screen_cites_the_newest_default_run_and_the_history():
    minutes, jobs = _total(NEWEST_DEFAULT_RUN)
    readme = (REPO_ROOT / "README.md").read_text()
    assert readme_time_problems(readme_time_sentence(readme), minutes, jobs) == []
    assert readme.index("How long it takes") < readme.index("## What comes out") < readme.index("## Layout")


def test_a_stale_or_rosy_readme_time_is_caught():
    stale = "How long it takes: the default run takes **14.0 min**, 128 jobs; history: benchmarks/results/HISTORY.md."
    assert readme_time_problems(stale, "23.2", "146") == [
        "the sentence does not cite the newest measurement (**23.2 min**, 146 jobs)",
        "the sentence must say 'over its 15-minute budget' exactly when the run is over 15 minutes",
    ]
