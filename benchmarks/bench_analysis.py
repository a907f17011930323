"""Benchmark: the whole analysis on a synthetic paper-shaped study, 5,000 bootstrap resamples.

23 models x 19 tasks (6 families; 4 cs_original, 4 cs_reworked, 3 control, 8 downstream; accuracy
and macro-F1, TimeDial accuracy only). Target: at most 20 s wall time on 2 cores.

    .venv/bin/python benchmarks/bench_analysis.py [--n-bootstrap 5000] [--no-figures] [--keep DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from benchval.testing.analysis_in_one_process import run_analysis
from benchval.testing.synthetic_study import write_synthetic_study


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n-bootstrap", type=int, default=5000)
    parser.add_argument("--no-figures", action="store_true", help="time the tables only")
    parser.add_argument("--keep", type=Path, help="write outputs here instead of a temporary directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out = args.keep or Path(scratch)
        score_csv, tasks_csv = write_synthetic_study(out / "input", seed=0)
        wall, cpu = time.perf_counter(), time.process_time()
        run_analysis(
            score_csv,
            tasks_csv,
            {"n_bootstrap": args.n_bootstrap, "seed": 1},
            out / "synthetic",
            make_figures=not args.no_figures,
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    what = "tables" if args.no_figures else "tables + figures"
    print(
        f"bench_analysis: 23 models x 19 tasks, {args.n_bootstrap} bootstrap resamples, {what}: "
        f"{wall:.2f} s wall, {cpu:.2f} s CPU (target <= 20 s wall on 2 cores)"
    )


if __name__ == "__main__":
    main()
