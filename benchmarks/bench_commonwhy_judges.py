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

The rule-based canary judges (:mod:`benchval.commonwhy.eval.canaries`) run first through the same gate; a
canary that passes makes every judge invalid (the check set cannot separate). ``check_table.csv`` holds every
row the gate reads (per type, with its floor) for the canaries and every model. Expected cost on a quiet machine:
the check set is ~1.3-1.6x the old 217 pairs, so roughly 1.5x the earlier per-model seconds in docs/commonwhy-eval.md
(~4 CPU-min for SmolLM2, ~9 for Qwen2.5-Coder-0.5B, ~10 for Qwen2.5-Coder-1.5B bf16; all four models ~30 min on one
thread) -- an estimate, not a measurement.

Each model is loaded once; ``calibrated`` runs first and scores every prompt it needs (the answers' and
the content-free "N/A" answer's), ``logprob`` then reuses those margins, so its ``seconds_judge`` is ~0
and the calibrated pass's ``seconds_judge`` is the cost of the full check. Models of MODELS.md not
prepared here are listed as ``not prepared`` rather than skipped silently. Qwen2.5-Coder-1.5B is not
in the default config: ``benchmarks/commonwhy_judges.yaml`` declares it (bfloat16) and the run takes it as a
second config file. Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_commonwhy_judges.py --threads 1 \
        --config config/config.yaml benchmarks/commonwhy_judges.yaml --models smollm2-135m
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
from benchval.commonwhy.eval.steps.commonwhy_eval_judge_canaries import stage_judge_canaries
from benchval.commonwhy.eval.steps.commonwhy_eval_judge_check import check_judge
from benchval.commonwhy.eval.judge import make_judge
from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.job_threads import limit_torch_threads

MODELS_MD = ("smollm2-135m", "gemma3-270m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b")  # ../shared/MODELS.md
DECISIONS = ("calibrated", "logprob")  # calibrated first: logprob reuses its margins


def read_configs(paths: list[str]) -> dict:
    """The config files merged as snakemake merges --configfile (top-level sections updated key by key)."""
    config: dict = {}
    for path in paths:
        for key, value in (yaml.safe_load(Path(path).read_text()) or {}).items():
            if isinstance(value, dict) and isinstance(config.get(key), dict):
                config[key] = {**config[key], **value}
            else:
                config[key] = value
    return config


def merge_previous(table: pd.DataFrame, path: Path) -> pd.DataFrame:
    """This run's rows over those of earlier runs in `path` (judges measured one at a time)."""
    if not path.exists():
        return table
    previous = pd.read_csv(path)
    keep = ~previous["judge"].isin(table["judge"])
    return pd.concat([previous[keep], table], ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--config",
        nargs="+",
        default=[str(REPO_ROOT / "config" / "config.yaml")],
        help="config files, later ones update earlier ones (as snakemake --configfile)",
    )
    parser.add_argument("--check-set", default="results/commonwhy_eval/judge_check/check_set.parquet")
    parser.add_argument("--models-dir", default="resources/models")
    parser.add_argument("--out", default=str(REPO_ROOT / "benchmarks" / "results" / "commonwhy_judges"))
    parser.add_argument("--models", nargs="*", default=list(MODELS_MD))
    parser.add_argument("--decisions", nargs="*", default=list(DECISIONS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None, help="bootstrap seed (default: the config's seed)")
    args = parser.parse_args()

    config = read_configs(args.config)
    settings = resolve(config.get("commonwhy_eval"))
    seed = config.get("seed", 0) if args.seed is None else args.seed
    limit_torch_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # the canary judges first (no model, seconds): each must fail the same gate
    canaries = stage_judge_canaries(
        args.check_set,
        stage_section(settings, "judge_canaries"),
        seed,
        str(out / "canaries.csv"),
        str(out / "canaries.json"),
    )
    for canary in canaries:
        print(canary["reason"], "->", "PASSES: the check set cannot separate" if canary["valid"] else "rejected")
    rows = [
        {
            "judge": c["judge"],
            "decision": "rule",
            "status": "measured",
            "valid": c["valid"],
            "balanced_accuracy": c["balanced_accuracy"],
            "balanced_accuracy_lo": c["balanced_accuracy_lo"],
            "failing": ";".join(c["failing"]),
            "not_read": ";".join(c["not_read"]),
        }
        for c in canaries
    ]
    passing_canaries = [c["judge"] for c in canaries if c["valid"]]
    for model in args.models:
        manifest = Path(args.models_dir) / model / "benchval-model.json"
        if model not in config["models"] or not manifest.exists():
            rows.append({"judge": model, "decision": None, "status": "not prepared"})
            print(f"{model}: not prepared ({manifest} missing or not in the config's models)", flush=True)
            continue
        started = time.perf_counter()
        judge = make_judge(model, settings, config["models"], args.models_dir)
        seconds_load = time.perf_counter() - started
        for decision in args.decisions:
            judge.decision = decision
            stem = out / f"{model}-{decision}"
            validity = check_judge(
                judge,
                model,
                args.check_set,
                settings,
                seed,
                (f"{stem}.parquet", f"{stem}.csv", f"{stem}.json"),
                seconds_load,
                canaries_passing=passing_canaries,
            )
            scores = pd.read_csv(f"{stem}.csv").set_index("subset")
            rows.append(
                {
                    "judge": model,
                    "decision": decision,
                    "status": "measured",
                    "dtype": config["models"][model].get("dtype", "float32"),
                    "threads": args.threads,
                    **{
                        k: validity[k]
                        for k in (
                            "valid",
                            "balanced_accuracy",
                            "balanced_accuracy_lo",
                            "n_pairs",
                            "share_yes",
                            "seconds_load",
                            "seconds_judge",
                        )
                    },
                    "balanced_accuracy_hi": scores.loc["all", "balanced_accuracy_hi"],
                    "kappa": scores.loc["all", "kappa"],
                    "failing": ";".join(validity["failing"]),
                    "not_read": ";".join(validity["not_read"]),
                }
            )
            print(validity["reason"], f"({decision}, {validity['seconds_judge']} s)", flush=True)
        del judge
    table = merge_previous(pd.DataFrame(rows), out / "judges.csv")
    table.to_csv(out / "judges.csv", index=False)
    models = table[table["decision"] != "rule"]
    passing = models[models.get("valid", pd.Series(False, index=models.index)).fillna(False).astype(bool)]
    best = passing.sort_values("balanced_accuracy_lo", ascending=False).iloc[0].to_dict() if len(passing) else None
    recommendation = {
        "bar": settings["judge_check"]["bar"],
        "best_passing": None if best is None else {"system": best["judge"], "decision": best["decision"]},
        "note": "no judge at hand passes: correctness is invalid" if best is None else "use it as commonwhy_eval.judge",
    }
    (out / "recommendation.json").write_text(json.dumps(recommendation, indent=2))
    print(table.to_string(index=False))
    # the check table: every row the gate reads, per judge (canaries included), with its floor
    tables = [pd.read_csv(out / "canaries.csv")] + [
        pd.read_csv(out / f"{r['judge']}-{r['decision']}.csv")
        for r in rows
        if r["decision"] != "rule" and r.get("decision")
    ]
    check_table = pd.concat(tables, ignore_index=True)
    check_table.to_csv(out / "check_table.csv", index=False)
    columns = [
        "judge",
        "decision",
        "subset",
        "n_pairs",
        "n_questions",
        "rate",
        "rate_lo",
        "rate_hi",
        "floor",
        "read",
        "passes",
    ]
    print(check_table[columns].round(3).to_string(index=False))
    print(json.dumps(recommendation))


if __name__ == "__main__":
    main()
