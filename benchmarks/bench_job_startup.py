"""What each rule script pays before its work: CPU seconds of its imports, and of loading each prepared model.

For every script under workflow/scripts/, a fresh Python process imports the ``benchval`` modules the script
imports (what the job pays before its first statement of work; Snakemake's own script preamble, ~0.15 s,
comes on top) and reports its CPU seconds (resource.getrusage: user + system) and which heavy libraries came
with them. For every prepared model under ``--models-dir``, a fresh process loads it as the model jobs do
(benchval.models.loader.load_prepared, fp32 on the CPU) and reports the CPU seconds of the load alone.
With ``--run`` (a finished default run), each script's figure is multiplied by the number of its jobs there
(one benchmark file per job under logs/benchmarks/<rule>/), so that the sums bound what imports behind use or
fewer model loads could save in that run. Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_job_startup.py --run /work/runs/after41 \
        --models-dir /work/runs/after41/resources/models
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from benchval.plumbing.folders import REPO_ROOT

HEAVY = ("torch", "transformers", "scipy.stats", "sklearn", "matplotlib")
IMPORTS = re.compile(r"^from (benchval[\w.]*) import", re.M)

PROBE = """
import json, resource, sys
{imports}
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"cpu_s": usage.ru_utime + usage.ru_stime, "heavy": [m for m in {heavy!r} if m in sys.modules]}}))
"""

LOAD = """
import json, resource
from benchval.models.loader import load_prepared
from benchval.models.placement import Placement
before = resource.getrusage(resource.RUSAGE_SELF)
load_prepared({folder!r}, placement=Placement("cpu", "float32"))
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"load_cpu_s": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
                  "imports_cpu_s": before.ru_utime + before.ru_stime}}))
"""


def probe(code: str) -> dict:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def script_rules() -> dict[str, list[str]]:
    """script name -> the rules that run it (from workflow/rules/*.smk)."""
    rules: dict[str, list[str]] = {}
    for path in sorted((REPO_ROOT / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"\n(?=rule )", path.read_text()):
            name = re.match(r"rule (\w+):", block)
            script = re.search(r"script:\s*\n\s+\"\.\./scripts/(\w+)\.py\"", block)
            if name and script:
                rules.setdefault(script.group(1), []).append(name.group(1))
    return rules


def job_count(run: Path | None, script: str, rules: list[str]) -> int | None:
    """Jobs of the script's rules in `run`; a script of per-model rules (score -> score_model_<model>) is
    matched by its rules' names beginning with ``<script>_model_``."""
    if run is None:
        return None
    folders = [run / "logs" / "benchmarks" / rule for rule in rules]
    folders += sorted((run / "logs" / "benchmarks").glob(f"{script}_model_*"))
    return sum(len(list(folder.glob("*.tsv"))) for folder in set(folders))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=None, help="a finished run: jobs per rule from logs/benchmarks/")
    parser.add_argument("--models-dir", type=Path, default=REPO_ROOT / "resources" / "models")
    args = parser.parse_args()
    rules = script_rules()
    rows = []
    for script in sorted((REPO_ROOT / "workflow" / "scripts").glob("*.py")):
        modules = IMPORTS.findall(script.read_text())
        found = probe(PROBE.format(imports="\n".join(f"import {m}" for m in modules), heavy=HEAVY))
        jobs = job_count(args.run, script.stem, rules.get(script.stem, []))
        rows.append((script.stem, found["cpu_s"], jobs, found["heavy"]))
    rows.sort(key=lambda r: -(r[1] * (r[2] if r[2] is not None else 1)))
    print(f"{'script':45} {'import CPU-s':>12} {'jobs':>5} {'x jobs':>7}  heavy modules imported")
    for name, cpu, jobs, heavy in rows:
        total = "" if jobs is None else f"{cpu * jobs:7.2f}"
        print(f"{name:45} {cpu:12.2f} {'' if jobs is None else jobs:>5} {total:>7}  {' '.join(heavy)}")
    if args.run is not None:
        print(f"imports over the run's jobs: {sum(c * (j or 0) for _, c, j, _ in rows):.1f} CPU-s")
        for module in HEAVY:
            jobs = sum(j or 0 for _, _, j, heavy in rows if module in heavy)
            print(f"  jobs importing {module}: {jobs}")
    for manifest in sorted(args.models_dir.glob("*/benchval-model.json")):
        found = probe(LOAD.format(folder=str(manifest.parent)))
        print(
            f"model {manifest.parent.name}: imports {found['imports_cpu_s']:.2f} CPU-s, "
            f"load {found['load_cpu_s']:.2f} CPU-s (fp32, CPU)"
        )


if __name__ == "__main__":
    main()
