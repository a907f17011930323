"""Benchmark: the README's default run, `snakemake --cores 8 results/figures`, timed end to end.

Runs the repository's Snakefile with config/config.yaml in a fresh working directory (nothing
computed, models prepared inside the run unless --models-from is given) and prints the total wall
time, the peak memory of the largest job and, per rule, its jobs and time taken from Snakemake's log,
then the same per rule from the `benchmark:` file every rule writes (logs/benchmarks/<rule>/).
Target: at most 15 minutes on 2 cores, models included, after ./install.sh.

    .venv/bin/python benchmarks/bench_default_run.py [--workdir DIR] [--cores 8] [--models-from DIR]

Wheels already in pip's cache are not downloaded again; --models-from links the prepared models of
an earlier run (its resources/models) to time everything else.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import snakemake_command

TARGET_MINUTES = 15
STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ [\d:]+ \d{4})\]$")
RULE = re.compile(r"^(?:local)?rule (\w+):$")
JOBID = re.compile(r"^\s+jobid: (\d+)$")
FINISHED = re.compile(r"^Finished jobid: (\d+) ")
MODEL_JOB = re.compile(r"^\s+resources: .*\bmodel_jobs=1\b")


def job_times(log_text: str) -> dict[str, list[float]]:
    """Rule -> seconds of each job, from the start and finish stamps of a Snakemake log."""
    started, seconds = {}, defaultdict(list)
    stamp = rule = None
    for line in log_text.splitlines():
        if match := STAMP.match(line):
            stamp = datetime.strptime(" ".join(match.group(1).split()), "%a %b %d %H:%M:%S %Y")
        elif match := RULE.match(line):
            rule = match.group(1)
        elif (match := JOBID.match(line)) and rule:
            started[match.group(1)] = (rule, stamp)
            rule = None
        elif (match := FINISHED.match(line)) and match.group(1) in started:
            name, start = started.pop(match.group(1))
            seconds[name].append((stamp - start).total_seconds())
    return dict(seconds)


def most_model_jobs_at_once(log_text: str) -> int:
    """The most jobs holding a model-job slot (resources: model_jobs=1) that ran side by side, from the log:
    it must not exceed local.model_jobs_at_once."""
    running: set[str] = set()
    most, jobid = 0, None
    for line in log_text.splitlines():
        if match := JOBID.match(line):
            jobid = match.group(1)
        elif MODEL_JOB.match(line) and jobid is not None:
            running.add(jobid)
            most = max(most, len(running))
        elif match := FINISHED.match(line):
            running.discard(match.group(1))
    return most


def run(workdir: Path, cores: int) -> float:
    command = [*snakemake_command(workdir, REPO_ROOT / "config" / "config.yaml", cores=cores), "results/figures"]
    start = time.perf_counter()
    with open(workdir / "bench-snakemake.out", "w") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"snakemake failed (exit {result.returncode}); see {workdir / 'bench-snakemake.out'}")
    return wall


def report(workdir: Path, wall: float, cores: int, models_from: Path | None) -> None:
    logs = sorted((workdir / ".snakemake" / "log").glob("*.snakemake.log"))
    times = job_times(logs[-1].read_text())
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak_gb = children.ru_maxrss / 1024**2
    cpu_seconds = children.ru_utime + children.ru_stime
    models = f"models linked from {models_from}" if models_from else "models prepared in the run"
    print(f"bench_default_run: snakemake --cores {cores} results/figures in {workdir} ({models})")
    print(
        f"  total: {wall / 60:.1f} min wall (target <= {TARGET_MINUTES} min on 2 cores), "
        f"{sum(map(len, times.values()))} jobs, largest job peak RSS {peak_gb:.1f} GB"
    )
    print(
        f"  CPU time of all jobs and Snakemake: {cpu_seconds / 60:.1f} min "
        f"({cpu_seconds / (wall * os.cpu_count()):.0%} of {os.cpu_count()} cores over the wall time)"
    )
    print(f"  {'rule':32s} {'jobs':>4s} {'job-seconds':>11s} {'longest':>8s}")
    for rule, seconds in sorted(times.items(), key=lambda item: -sum(item[1])):
        print(f"  {rule:32s} {len(seconds):4d} {sum(seconds):11.0f} {max(seconds):8.0f}")
    print("  (job-seconds add up jobs that ran side by side; the total is the wall time)")
    print(f"  most model jobs side by side: {most_model_jobs_at_once(logs[-1].read_text())} (local.model_jobs_at_once)")


def benchmark_files(workdir: Path) -> dict[str, list[tuple[float, float]]]:
    """Rule -> (seconds, max RSS MB) of each job, from the `benchmark:` files every rule writes
    (logs/benchmarks/<rule>/...tsv, Snakemake's format: columns s, max_rss, ...)."""
    import csv

    found: dict[str, list[tuple[float, float]]] = defaultdict(list)
    root = workdir / "logs" / "benchmarks"
    for path in sorted(root.rglob("*.tsv")):
        rule = path.relative_to(root).parts[0]
        with open(path) as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                rss = row.get("max_rss", "NA")
                found[rule].append((float(row["s"]), float(rss) if rss not in ("NA", "-", "") else float("nan")))
    return dict(found)


def report_benchmarks(workdir: Path) -> None:
    """Per rule: jobs, summed seconds and the largest max RSS from the benchmark files."""
    found = benchmark_files(workdir)
    if not found:
        print("  (no benchmark files under logs/benchmarks/)")
        return
    print(f"  from logs/benchmarks/:\n  {'rule':42s} {'jobs':>4s} {'seconds':>8s} {'max RSS MB':>10s}")
    for rule, rows in sorted(found.items(), key=lambda item: -sum(s for s, _ in item[1])):
        rss = max((r for _, r in rows if r == r), default=float("nan"))
        print(f"  {rule:42s} {len(rows):4d} {sum(s for s, _ in rows):8.1f} {rss:10.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, help="run here (must be empty) instead of a temporary directory")
    parser.add_argument("--cores", type=int, default=8, help="snakemake --cores (the README says 8)")
    parser.add_argument("--models-from", type=Path, help="an earlier run's resources/models to link")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-default-run-") as scratch:
        workdir = (args.workdir or Path(scratch)).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
        if any(workdir.iterdir()):
            sys.exit(f"{workdir} is not empty: the benchmark times a run from nothing")
        if args.models_from:
            (workdir / "resources").mkdir()
            (workdir / "resources" / "models").symlink_to(args.models_from.resolve())
        wall = run(workdir, args.cores)
        report(workdir, wall, args.cores, args.models_from)
        report_benchmarks(workdir)


if __name__ == "__main__":
    main()
