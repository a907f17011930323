"""The judge check's canaries on check sets built with several seeds (issue 45, "Must show").

For each seed the check set is built as rule ``commonwhy_eval_check_set`` builds it (the default config's
``judge_check`` settings, the CommonWhy tables and KG store of a finished run in ``--run-dir``) and every canary
(benchval.commonwhy.eval.canaries: the rule canaries and the artifact canaries) goes through the gate. The
answering model's outputs are those of the finished run's rule ``commonwhy_eval_check_answer`` (answers of
questions the seed does not draw are unused; questions it draws that the run did not are left without one: this
script runs no model). ``--former`` also gates the canaries on the finished run's own check set (the set as it was
built before). Outputs in ``--out``: ``{seed}/check_set.parquet``, ``check_set_report.json``, ``canaries.csv``,
``canaries.json``, and ``summary.csv`` (one row per set and canary: balanced accuracy, its lower end, valid,
failing rows). Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_commonwhy_canaries.py --run-dir /work/runs/before \\
        --seeds 20261130 7 --former
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd
import yaml

from benchval.commonwhy.eval.settings import resolve
from benchval.commonwhy.eval.stage_keys import stage_section
from benchval.commonwhy.eval.steps.commonwhy_eval_check_set import stage_check_set
from benchval.commonwhy.eval.steps.commonwhy_eval_judge_canaries import stage_judge_canaries
from benchval.plumbing.folders import REPO_ROOT, default_mirror

OUT = REPO_ROOT / "benchmarks" / "results" / "commonwhy_canaries"
STORE = "resources/kg/litwd1k.oxigraph"  # the default config's local KG store (commonwhy.kg.store)


def gate(check_set: Path, config: dict, seed: int, out: Path) -> list[dict]:
    settings = stage_section(resolve(config["commonwhy_eval"]), "judge_canaries")
    started = time.process_time()
    verdicts = stage_judge_canaries(
        str(check_set), settings, seed, str(out / "canaries.csv"), str(out / "canaries.json")
    )
    print(f"{out.name}: canaries in {time.process_time() - started:.1f} CPU s")
    return verdicts


def build(run_dir: Path, config: dict, seed: int, out: Path) -> Path:
    answers = run_dir / "results/commonwhy_eval/judge_check/answers"
    out.mkdir(parents=True, exist_ok=True)
    stage_check_set(
        str(run_dir / "results/commonwhy/published.parquet"),
        str(run_dir / "results/commonwhy/constructed.parquet"),
        config["commonwhy"]["kg"],
        str(run_dir / STORE),
        stage_section(resolve(config["commonwhy_eval"]), "check_set"),
        seed,
        str(out / "check_set.parquet"),
        str(out / "check_set_report.json"),
        answers={path.stem: str(path) for path in sorted(answers.glob("*.parquet"))},
        rule_queries=str(Path(default_mirror()) / "commonwhy" / "inference_rule_entities.json"),
    )
    return out / "check_set.parquet"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-dir", required=True, help="a finished default run (results/, resources/kg)")
    parser.add_argument("--config", default=str(REPO_ROOT / "config" / "config.yaml"))
    parser.add_argument("--seeds", nargs="+", type=int, required=True)
    parser.add_argument("--former", action="store_true", help="also the run's own check set")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    run_dir, out, config = Path(args.run_dir), Path(args.out), yaml.safe_load(Path(args.config).read_text())
    gate_seed = config["seed"]
    rows = []
    sets = {f"seed-{seed}": (seed, None) for seed in args.seeds}
    if args.former:
        sets = {"former": (gate_seed, run_dir / "results/commonwhy_eval/judge_check/check_set.parquet"), **sets}
    for name, (seed, existing) in sets.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        check_set = existing or build(run_dir, config, seed, folder)
        for v in gate(check_set, config, gate_seed, folder):
            rows.append(
                {
                    "check_set": name,
                    "canary": v["judge"],
                    "balanced_accuracy": round(v["balanced_accuracy"], 3),
                    "balanced_accuracy_lo": round(v["balanced_accuracy_lo"], 3),
                    "valid": v["valid"],
                    "failing": ";".join(v["failing"]),
                }
            )
    summary = pd.DataFrame(rows)
    summary.to_csv(out / "summary.csv", index=False)
    print(summary.to_string(index=False))
    (out / "sets.json").write_text(json.dumps({k: v[0] for k, v in sets.items()}, indent=2))


if __name__ == "__main__":
    main()
