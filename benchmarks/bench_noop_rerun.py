"""Benchmark: the no-op rerun of a finished default run, `snakemake --cores 8 results/figures` again.

Runs the README's command (this checkout's Snakefile, config/config.yaml) in the finished run directory
given as argument, ``--repeat`` times, and prints each wall time, the fastest and the median, and
whether Snakemake said "Nothing to be done". A rerun that plans jobs is reported with its job table
(then it was no no-op: the run directory is not finished for this code and config). Target: 5 s.
It reads the run's files and writes only Snakemake's own bookkeeping (.snakemake/) and, when a
published file is missing, rebuilds it (benchval.plumbing.published_folders): run it on a copy if that matters.

    .venv/bin/python benchmarks/bench_noop_rerun.py RUN_DIR [--repeat 3] [--cores 8] [--configfile FILE]

(--configfile: the run's config when it is not config/config.yaml, e.g. a test's tiny run.)

Nothing a rule's job does runs in a no-op rerun; what it costs is Snakemake parsing the workflow,
building the DAG and checking the files. The checks of issue 24 that run when the workflow is read
(the model lock entries' stamps, the published files' manifest, the config files' duplicate keys) are
in it; the raw-file and weights checksums are not (they run inside the jobs that read those files).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import offline_env, snakemake_command

TARGET_SECONDS = 5.0


def rerun(run_dir: Path, cores: int, configfile: Path) -> tuple[float, subprocess.CompletedProcess]:
    command = [*snakemake_command(run_dir, configfile, cores=cores), "results/figures"]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=REPO_ROOT, env=offline_env(), capture_output=True, text=True)
    return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", type=Path, help="a finished default run (its results/, resources/, .snakemake/)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--configfile", type=Path, default=REPO_ROOT / "config" / "config.yaml")
    args = parser.parse_args()
    run_dir = args.run_dir.resolve()
    if not (run_dir / "results" / "figures").is_dir():
        parser.error(f"{run_dir} has no results/figures: not a finished default run")
    times = []
    for attempt in range(1, args.repeat + 1):
        seconds, result = rerun(run_dir, args.cores, args.configfile.resolve())
        output = result.stdout + result.stderr
        nothing = "Nothing to be done" in output
        times.append(seconds)
        print(f"rerun {attempt}: {seconds:.2f} s, rc {result.returncode}, nothing to be done: {nothing}")
        if result.returncode != 0 or not nothing:
            print(output[-4000:])
            print("not a no-op rerun: the time above is not the no-op rerun's")
            return 1
    print(
        f"no-op rerun of {run_dir}: fastest {min(times):.2f} s, median {statistics.median(times):.2f} s "
        f"over {len(times)} (target {TARGET_SECONDS:g} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
