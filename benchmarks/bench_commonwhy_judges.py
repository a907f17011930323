"""Measure every offline model of ../shared/MODELS.md as the CommonWhy correctness judge (outside the default run).

Each prepared model under ``resources/models/`` that the config's ``models:`` section declares is run on
the judge check set (``results/commonwhy_eval/judge_check/check_set.parquet``; built first with
``snakemake --cores 2 results/commonwhy_eval/judge_check/check_set.parquet``) with each local decision
(``logprob``, ``calibrated``), exactly as the workflow's ``commonwhy_eval_judge_check`` rule does
(same prompt, batch size, bootstrap and bar from the config). Per (model, decision) the per-type table
and the validity verdict are written to ``--out`` (default ``benchmarks/results/commonwhy_judges/``), with
``judges.csv`` (one row per judge: balanced accuracy on all pairs, its interval, kappa, valid, seconds)
and the recommendation: the judge with the highest lower end of the balanced accuracy interval among
those that pass the bar; none passing means correctness is invalid with every judge at hand.

Models of MODELS.md not prepared here (Qwen2.5-Coder-1.5B is not in the default config) are listed as
``not prepared`` rather than skipped silently. Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_commonwhy_judges.py --threads 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd
import yaml

from benchval.commonwhy.eval import run
from benchval.commonwhy.eval.settings import resolve
from benchval.paths import REPO_ROOT

MODELS_MD = ("smollm2-135m", "gemma3-270m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b")  # ../shared/MODELS.md
DECISIONS = ("logprob", "calibrated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(REPO_ROOT / "config" / "config.yaml"))
    parser.add_argument("--check-set", default="results/commonwhy_eval/judge_check/check_set.parquet")
    parser.add_argument("--models-dir", default="resources/models")
    parser.add_argument("--out", default=str(REPO_ROOT / "benchmarks" / "results" / "commonwhy_judges"))
    parser.add_argument("--models", nargs="*", default=list(MODELS_MD))
    parser.add_argument("--decisions", nargs="*", default=list(DECISIONS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None, help="bootstrap seed (default: the config's seed)")
    args = parser.parse_args()

    config = yaml.safe_load(Path(args.config).read_text())
    settings = resolve(config.get("commonwhy_eval"))
    seed = config.get("seed", 0) if args.seed is None else args.seed
    run.set_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for model in args.models:
        manifest = Path(args.models_dir) / model / "benchval-model.json"
        if model not in config["models"] or not manifest.exists():
            rows.append({"judge": model, "decision": None, "status": "not prepared"})
            print(f"{model}: not prepared ({manifest} missing or not in the config's models)", flush=True)
            continue
        for decision in args.decisions:
            stem = out / f"{model}-{decision}"
            validity = run.stage_judge_check(args.check_set, model, settings, config["models"],
                                             f"{stem}.parquet", f"{stem}.csv", f"{stem}.json", seed,
                                             models_dir=args.models_dir, decision=decision)  # fmt: skip
            scores = pd.read_csv(f"{stem}.csv").set_index("subset")
            rows.append({"judge": model, "decision": decision, "status": "measured",
                         **{k: validity[k] for k in ("valid", "balanced_accuracy", "balanced_accuracy_lo",
                                                     "n_pairs", "share_yes", "seconds_load", "seconds_judge")},
                         "balanced_accuracy_hi": scores.loc["all", "balanced_accuracy_hi"],
                         "kappa": scores.loc["all", "kappa"]})  # fmt: skip
            print(validity["reason"], f"({decision}, {validity['seconds_judge']} s)", flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(out / "judges.csv", index=False)
    passing = table[table.get("valid", pd.Series(False, index=table.index)).fillna(False).astype(bool)]
    best = (passing.sort_values("balanced_accuracy_lo", ascending=False).iloc[0].to_dict() if len(passing) else None)
    recommendation = {
        "bar": settings["judge_check"]["bar"],
        "best_passing": None if best is None else {"system": best["judge"], "decision": best["decision"]},
        "note": "no judge at hand passes: correctness is invalid" if best is None else "use it as commonwhy_eval.judge",
    }  # fmt: skip
    (out / "recommendation.json").write_text(json.dumps(recommendation, indent=2))
    print(table.to_string(index=False))
    print(json.dumps(recommendation))


if __name__ == "__main__":
    main()
