"""Benchmark: the robustness rules (task reliability, power planning, specification robustness) of
every study of a finished run, rerun on their own, with each job's wall and CPU time from its
Snakemake benchmark file. Budget: the specification robustness of the default config within 60 s on
2 cores (docs/analysis.md, "Specification robustness").

Run it in a checkout whose default run has finished (`snakemake --cores 8 results/figures`):

    .venv/bin/python benchmarks/bench_robustness.py [--cores 2] [--configfile config/config.yaml]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pandas as pd
import yaml

RULES = ("task_reliability", "power_planning", "specification_robustness")
OUTPUTS = {
    "task_reliability": "results/studies/{study}/tables/task_reliability.csv",
    "power_planning": "results/studies/{study}/tables/power.csv",
    "specification_robustness": "results/studies/{study}/tables/specification_robustness.csv",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--configfile", default="config/config.yaml")
    args = parser.parse_args()
    studies = list(yaml.safe_load(Path(args.configfile).read_text())["studies"])
    targets = [OUTPUTS[rule].format(study=study) for rule in RULES for study in studies]
    snakemake = Path(sys.executable).with_name("snakemake")
    command = [str(snakemake), "--cores", str(args.cores), "--configfile", args.configfile, "--forcerun", *RULES]
    command += ["--allowed-rules", *RULES, "--", *targets]
    subprocess.run(command, check=True)
    rows = []
    for rule in RULES:
        for study in studies:
            measured = pd.read_csv(f"logs/benchmarks/{rule}/{study}.tsv", sep="\t").iloc[-1]
            rows.append({"rule": rule, "study": study, "wall_s": measured["s"], "cpu_s": measured["cpu_time"]})
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    print(f"total wall {table['wall_s'].sum():.1f} s, cpu {table['cpu_s'].sum():.1f} s ({args.cores} cores)")


if __name__ == "__main__":
    main()
