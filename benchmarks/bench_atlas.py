"""Benchmark: the time the validity atlas adds to the default run (issues 23 and 33; target: at most 120 s on 2 cores).

Runs, in an empty working directory, every job the atlas adds to `snakemake --cores 2 results/figures`:
the atlas rules (workflow/rules/atlas.smk) and the analysis chain of its study (open_llm, figures included,
and its robustness tables: task reliability, power, specification robustness), then prints the total wall
time and each job's time (Snakemake benchmark files, where the rule has one).

    .venv/bin/python benchmarks/bench_atlas.py [--cores 2] [--keep DIR]

Needs the raw-data mirror (../shared/data/raw). Run it on the quiet machine: a loaded one says nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from benchval.plumbing.config import merged_config
from benchval.jobs.layout import ROBUSTNESS_TABLES, fill, workflow_layout
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.snakemake_run import snakemake_command


def targets(config: dict) -> list[str]:
    layout = workflow_layout(config)
    atlas = [
        "results/atlas/pairs.csv",
        "results/atlas/human_preference.csv",
        "results/atlas/agreement_validity.csv",
        "results/atlas/open_llm_crosscheck.csv",
        "results/atlas/intervals/open_llm.csv",
        "results/atlas/report.md",
        "results/atlas/registry/identity_check.csv",
        *(f"results/atlas/figures/atlas_heatmap.{ext}" for ext in config["analysis"]["figures"]["formats"]),
        *(f"results/atlas/figures/factor_structure.{ext}" for ext in config["analysis"]["figures"]["formats"]),
    ]
    robustness = [fill(table, study="open_llm") for table in ROBUSTNESS_TABLES]
    figures = layout.study_figure_files("open_llm") + layout.study_figure_files("open_llm", ["specification_curve"])
    return atlas + figures + layout.study_table_files("open_llm") + robustness


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="run in this directory instead of a temporary one")
    args = parser.parse_args()
    if default_mirror() is None:
        sys.exit("bench_atlas: the raw-data mirror ../shared/data/raw is absent")
    config = merged_config()
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.keep or Path(scratch)
        command = [
            *snakemake_command(workdir, REPO_ROOT / "config" / "config.yaml", cores=args.cores),
            *targets(config),
        ]
        started = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - started
        if result.returncode:
            sys.exit(f"bench_atlas: snakemake failed:\n{result.stderr[-4000:]}")
        rows = []
        for path in sorted((workdir / "logs" / "benchmarks").rglob("*.tsv")):
            seconds = pd.read_csv(path, sep="\t")["s"].iloc[0]
            rows.append((str(path.relative_to(workdir / "logs" / "benchmarks")), seconds))
    print(
        f"bench_atlas: {len(rows)} benchmarked jobs, total wall time {wall:.1f} s on {args.cores} cores "
        "(target <= 120 s)"
    )
    for name, seconds in sorted(rows, key=lambda row: -row[1]):
        print(f"  {seconds:7.1f} s  {name}")


if __name__ == "__main__":
    main()
