"""CPU time of the default run's jobs, per candidate saving (issue #41, item 5): what each change saves, measured.

    .venv/bin/python benchmarks/bench_cpu_work.py --run /work/runs/after [--sections openmp imports]

Every figure is the CPU time (user + sys, ``os.wait4``'s rusage) of a fresh child process, with the load
average printed beside it (a shared 2-core machine: CPU seconds vary less with load than wall seconds,
but not nothing). Sections:

* ``openmp``: the scoring of one model on two tasks (``benchval.scoring.task_scoring.score_tasks``, the
  work of rule ``score_model_<model>``) from the finished run's items and prepared model, with 1 and 2 torch
  threads, with libgomp's default wait policy (idle OpenMP threads spin) and with ``OMP_WAIT_POLICY=PASSIVE``;
  each scores table is compared with the run's own (``DataFrame.equals``: the same floats, bit for bit).
* ``imports``: per rule script, the CPU its ``benchval`` imports cost in a process that has already done what
  Snakemake's script preamble imports (pickle, snakemake.iocontainers, snakemake.logging, snakemake.shell):
  the start-up a job pays before its work, beyond what Snakemake makes it pay anyway.
* ``jobs``: single jobs force-run (``snakemake -f TARGET --allowed-rules RULE --rerun-triggers mtime``) in a
  copy of a finished run (``--copy``, made with ``cp -a``), alternately with the code of ``--before`` (a checkout
  with its own .venv) and of this tree; the CPU of the whole snakemake process tree, and whether the target is
  the same bytes as the copy's before the first run.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREAMBLE = (
    "import pickle; import snakemake.iocontainers; from snakemake.logging import logger; "
    "from snakemake.shell import shell"
)

SCORE_CHILD = """
import json, sys, yaml
from pathlib import Path
import pandas as pd
import torch
from benchval.scoring.task_scoring import TaskFiles, score_tasks
run, model, tasks = Path(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
out, threads = Path(sys.argv[4]), int(sys.argv[5])
torch.set_num_threads(threads)
config = yaml.safe_load((Path(sys.argv[6]) / "config/config.yaml").read_text())
files = [
    TaskFiles(str(run / f"results/tasks/{t}.parquet"), str(out / f"{t}.parquet"), str(out / f"{t}.shards"))
    for t in tasks
]
score_tasks(files, run / "resources/models" / model, config["scoring"], config["models"][model], model_name=model)
same = [
    pd.read_parquet(out / f"{t}.parquet").equals(pd.read_parquet(run / f"results/scores/{model}/{t}.parquet"))
    for t in tasks
]
print(json.dumps({"identical": all(same)}))
"""


def child_cpu(command: list[str], env: dict | None = None) -> tuple[float, str]:
    """(user + sys CPU seconds of the child, its stdout)."""
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        if status != 0:
            raise RuntimeError(f"{command[:3]} failed with status {status}")
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read()


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def openmp_section(run: Path, model: str, tasks: str) -> None:
    print(f"== openmp: score {model} on {tasks} (rule score_model_<model>'s work), CPU seconds")
    for threads in (1, 2):
        for policy in ("default (spin)", "PASSIVE"):
            env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
            if policy == "PASSIVE":
                env["OMP_WAIT_POLICY"] = "PASSIVE"
            with tempfile.TemporaryDirectory() as out:
                before = load()
                cpu, text = child_cpu(
                    [sys.executable, "-c", SCORE_CHILD, str(run), model, tasks, out, str(threads), str(ROOT)], env
                )
            identical = json.loads(text.strip().splitlines()[-1])["identical"]
            print(
                f"  torch threads {threads}, wait policy {policy:15s}: {cpu:6.1f} s CPU;"
                f" scores identical to the run's: {identical}; load {before} -> {load()}"
            )


def script_imports(path: str) -> str:
    lines = Path(path).read_text().splitlines()
    return ";".join(
        line.strip()
        for line in lines
        if re.match(r"^(from benchval\S* import|import benchval)", line) and "(" not in line
    )


def imports_section() -> None:
    print("== imports: CPU seconds of each rule script's benchval imports beyond Snakemake's preamble (best of 2)")
    base = min(child_cpu([sys.executable, "-c", PREAMBLE])[0] for _ in range(2))
    rows = []
    for path in sorted(glob.glob(str(ROOT / "workflow/scripts/*.py"))):
        code = script_imports(path)
        if code:
            cpu = min(child_cpu([sys.executable, "-c", f"{PREAMBLE}\n{code}"])[0] for _ in range(2))
            rows.append((cpu - base, Path(path).stem))
    for cpu, name in sorted(rows, reverse=True):
        print(f"  {name:45s} {cpu:5.2f}")
    print(f"  preamble alone {base:.2f} s; load {load()}")


JOBS = (
    ("task_reliability", "results/studies/default/tables/task_reliability.csv"),
    ("calibrate_model_smollm2_135m", "results/calibrated/smollm2-135m/blimp.parquet"),
)


def force_run(tree: Path, copy: Path, rule: str, target: str) -> float:
    snakemake = [str(tree / ".venv/bin/snakemake"), "-s", str(tree / "workflow/Snakefile"), "--directory", str(copy)]
    options = ["--configfile", str(tree / "config/config.yaml"), "--cores", "2", "--rerun-triggers", "mtime"]
    command = [*snakemake, *options, "--allowed-rules", rule, "-f", target, "--quiet"]
    return child_cpu(command, dict(os.environ, PYTHONPATH=str(tree / "src")))[0]


def jobs_section(before: Path, copy: Path, repeats: int = 2) -> None:
    print(f"== jobs: CPU seconds of snakemake force-running one job in {copy}, code of {before} vs this tree")
    for rule, target in JOBS:
        original = (copy / target).read_bytes()
        for _ in range(repeats):
            for tree in (before, ROOT):
                cpu = force_run(tree, copy, rule, target)
                same = (copy / target).read_bytes() == original
                print(f"  {rule:30s} {tree.name:10s} {cpu:6.2f} s CPU; output the same bytes: {same}; load {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=Path("/work/runs/after"), help="a finished default run")
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--tasks", default="hellaswag,winogrande")
    parser.add_argument("--before", type=Path, default=Path("/work/main"), help="checkout of the code before")
    parser.add_argument("--copy", type=Path, default=Path("/tmp/hp-run"), help="cp -a of a finished run")
    parser.add_argument(
        "--sections", nargs="+", default=["openmp", "imports", "jobs"], choices=["openmp", "imports", "jobs"]
    )
    args = parser.parse_args()
    if "openmp" in args.sections:
        openmp_section(args.run, args.model, args.tasks)
    if "imports" in args.sections:
        imports_section()
    if "jobs" in args.sections:
        jobs_section(args.before, args.copy)


if __name__ == "__main__":
    main()
