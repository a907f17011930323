"""The score-table import (rule import_score_table: benchval.lmeval.steps.import_score_table.import_study) is
linear in its input: a synthetic ``source: csv`` study of N models x T tasks, imported for growing N; prints
the seconds per size, the growth exponent (the slope of log time on log N, least squares over the sizes) and
the time for the largest size.

    python benchmarks/bench_import.py                       # 100 -> 20,000 models x 200 tasks
    python benchmarks/bench_import.py --models 100 1000 --tasks 50

An exponent near 1 is linear; the old import rebuilt a set of the table's tasks once per task (about 2).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from benchval.lmeval.steps.import_score_table import import_study  # noqa: E402

SIZES = (100, 300, 1000, 3000, 10000, 20000)


def write_source(path: Path, n_models: int, n_tasks: int, seed: int = 0) -> dict:
    """A one-row-per-model CSV and its study config (half the tasks benchmarks, half downstream)."""
    rng = np.random.default_rng(seed)
    scores = rng.random((n_models, n_tasks)).round(6)
    header = "model,family,size_b," + ",".join(f"t{j}" for j in range(n_tasks))
    lines = [header] + [
        f"org/model-{i},fam{i % 50},{1 + i % 70}," + ",".join(map(str, scores[i])) for i in range(n_models)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    roles = ("cs_original", "downstream")
    return {
        "source": "csv",
        "path": str(path),
        "columns": {"model": "model", "family": "family", "size_b": "size_b"},
        "tasks": {f"t{j}": {"column": f"t{j}", "role": roles[j % 2]} for j in range(n_tasks)},
    }


def time_import(n_models: int, n_tasks: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        study = write_source(folder / "source.csv", n_models, n_tasks)
        started = time.perf_counter()
        import_study("bench", study, None, folder / "score_table.csv", folder / "tasks.csv")
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--tasks", type=int, default=200)
    args = parser.parse_args()
    seconds = []
    print("| models | tasks | cells | seconds |\n|---:|---:|---:|---:|")
    for n_models in args.models:
        seconds.append(time_import(n_models, args.tasks))
        print(f"| {n_models} | {args.tasks} | {n_models * args.tasks} | {seconds[-1]:.2f} |", flush=True)
    slope = np.polyfit(np.log(args.models), np.log(seconds), 1)[0]
    print(f"growth exponent (log seconds on log models, {args.models[0]} -> {args.models[-1]}): {slope:.2f}")
    large = [(n, s) for n, s in zip(args.models, seconds) if n >= 1000]
    if len(large) >= 2:  # the small sizes are mostly fixed costs, which flatten the slope
        upper = np.polyfit(np.log([n for n, _ in large]), np.log([s for _, s in large]), 1)[0]
        print(f"growth exponent ({large[0][0]} -> {large[-1][0]} models): {upper:.2f}")
    print(f"time for {args.models[-1]} x {args.tasks}: {seconds[-1]:.1f} s")


if __name__ == "__main__":
    main()
