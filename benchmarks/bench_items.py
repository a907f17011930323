"""Benchmark: the time the item-level validity studies add to the default run (issue 35; target: at most
120 s of job time, so that the default run stays within 15 minutes from nothing on 2 cores).

Runs, in an empty working directory, every job the `items:` section adds to `snakemake --cores 2
results/figures` (workflow/rules/items.smk: responses of both sources, the IRT recovery gate, 1PL/2PL of
every benchmark, both studies, their figures and the report; plus atlas_sources, which the MMLU-Pro study
reads and the default run builds anyway), then prints the total wall time, each job's time and peak
memory (Snakemake benchmark files), the CPU time of Snakemake and all its jobs (getrusage of the
children: what the studies cost in work, least distorted by other load) and the machine's load average,
which says whether the wall times mean anything (they do only on a quiet machine).

    .venv/bin/python benchmarks/bench_items.py [--cores 2] [--keep DIR]

Needs the raw-data mirror (../shared/data/raw).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from benchval.plumbing.config import merged_config
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.jobs.layout import workflow_layout
from benchval.items.item_files import ITEM_FIGURE_STEMS
from benchval.testing.snakemake_run import snakemake_command

TARGET_SECONDS = 120.0


def targets(config: dict) -> list[str]:
    workflow_layout(config)  # fills the schema defaults (the figure formats)
    formats = config["analysis"]["figures"]["formats"]
    studies = config["items"]["studies"]
    figures = [
        f"results/items/{s}/figures/{stem}.{ext}" for s in studies for stem in ITEM_FIGURE_STEMS for ext in formats
    ]
    return ["results/items/report.md", *figures]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="run in this directory instead of a temporary one")
    args = parser.parse_args()
    if default_mirror() is None:
        sys.exit("bench_items: the raw-data mirror ../shared/data/raw is absent")
    config = merged_config()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.keep or Path(scratch)
        command = [
            *snakemake_command(workdir, REPO_ROOT / "config" / "config.yaml", cores=args.cores),
            *targets(config),
        ]
        started = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if result.returncode:
            sys.exit(f"bench_items: snakemake failed:\n{result.stderr[-4000:]}")
        rows = []
        for path in sorted((workdir / "logs" / "benchmarks").rglob("*.tsv")):
            table = pd.read_csv(path, sep="\t")
            rows.append(
                (str(path.relative_to(workdir / "logs" / "benchmarks")), table["s"].iloc[0], table["max_rss"].iloc[0])
            )
    job_seconds = sum(seconds for _, seconds, _ in rows)
    print(
        f"bench_items: {len(rows)} benchmarked jobs, wall time {wall:.1f} s on {args.cores} cores, "
        f"job time {job_seconds:.1f} s (target <= {TARGET_SECONDS:.0f} s), CPU time {cpu:.1f} s (user + system of "
        f"Snakemake and every job, the number a loaded machine distorts least); load average before "
        f"{load_before[0]:.1f}, after {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    for name, seconds, rss in sorted(rows, key=lambda row: -row[1]):
        print(f"  {seconds:7.1f} s  {rss:8.0f} MB  {name}")


if __name__ == "__main__":
    main()
