"""docs/scoring.md's bfloat16 section: the larger bench_dtype run's table once it is recorded; until
then the docs call that run pending and show no number of it.

The larger run (benchmarks/results/bench_dtype-100.csv) takes 1-3 hours on a quiet 2-core machine: no
test makes it. Both states are checked, so the test runs on every checkout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[2]
RECORDED = REPO / "benchmarks" / "results" / "bench_dtype-100.csv"
DOCS = REPO / "docs" / "scoring.md"
PENDING = "**A larger sample is prepared, not run**"
SMALL_RUN_ITEMS = 12  # the run the docs show until then


def bf16_section(text: str) -> str:
    return text.split("## bfloat16 vs float32, measured", 1)[1].split("\n## ", 1)[0]


def pending_problems(section: str) -> list[str]:
    """What is wrong with a bf16 section written before the larger run exists: it must say the run is
    pending, name the file it will write, and show only the small run's rows."""
    problems = []
    if PENDING not in " ".join(section.split()) or RECORDED.name not in section:
        problems.append(f"the section should state the larger run as pending ({PENDING!r}, {RECORDED.name})")
    items = re.findall(r"(?m)^\| [\w.-]+ +\| \w+ +\| \w+ +\| +(\d+) \|", section)
    if not items:
        problems.append("the section shows no table of the small run")
    if any(int(n) != SMALL_RUN_ITEMS for n in items):
        problems.append(
            f"a table row claims {sorted(set(items))} items: only the {SMALL_RUN_ITEMS}-item run is measured"
        )
    return problems


def test_the_docs_show_the_recorded_bf16_run_or_call_it_pending():
    section = bf16_section(DOCS.read_text())
    if RECORDED.exists():
        table = pd.read_csv(RECORDED).to_markdown(index=False, floatfmt=".3g")
        assert table in section, "docs/scoring.md should show:\n" + table
        assert PENDING not in " ".join(section.split()), (
            "the larger run is recorded: the docs should no longer call it pending"
        )
    else:
        assert pending_problems(section) == []


def test_a_section_claiming_the_larger_run_without_its_file_is_caught():
    section = bf16_section(DOCS.read_text())
    claimed = re.sub(r"(?m)^(\| smollm2-135m \| hellaswag +\| mc +\| +)12 \|", r"\g<1>100 |", section)
    assert claimed != section
    assert pending_problems(claimed) == ["a table row claims ['100', '12'] items: only the 12-item run is measured"]
    assert pending_problems(section.replace("not run**", "run**")) != []
