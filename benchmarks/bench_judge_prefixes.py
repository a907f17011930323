"""The judge's shared prefixes fed once: CPU seconds, verdicts and Yes-No margins, one prompt a row vs packed.

Runs the judge check of rule commonwhy_eval_judge_check (the configured judge, decision and prompt; the
check set of a finished run) and the judge on every system's answers (rule commonwhy_eval_judge's
judge_answers, run here even where the judge failed its check, so that its verdicts can be compared too),
twice, each in a fresh process with the model loaded once:

- ``rows``: the path before packing, every prompt its own row of a left-padded batch
  (HFGenerator.first_token_choice);
- ``packed``: the fast engine's packing (benchval.scoring.next_token): prompts of one question and
  reference fed their common prefix once, the content-free "N/A" prompts in the same pass.

Prints per path the CPU seconds (time.process_time of the process: every torch thread) of loading and of
judging, the prompt tokens fed, and then: verdicts that differ (must be 0), the largest |difference| of the
Yes-No margins and of the decided quantity (margin minus the content-free margin, for ``calibrated``), the
smallest |decided quantity| (its distance to the threshold 0), and the ``raw`` strings (3 decimals) that
differ. Usage (a quiet machine, 2 threads as the rule)::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_judge_prefixes.py --run /work/runs/after41
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

from benchval.plumbing.folders import REPO_ROOT

PATHS = ("rows", "packed")


def judge_once(args) -> None:
    """Child process: one path on the check set and on the answers; margins and verdicts to ``--out``."""
    from benchval.commonwhy.eval.judge import CONTENT_FREE_ANSWER, judge_answers, make_judge
    from benchval.commonwhy.eval.judge_check import judge_pairs
    from benchval.commonwhy.eval.questions import read_questions
    from benchval.commonwhy.eval.settings import resolve
    from benchval.generation.prompts import user
    from benchval.plumbing.job_threads import limit_torch_threads

    limit_torch_threads(args.threads)
    config = yaml.safe_load(Path(args.config).read_text())
    settings = resolve(config.get("commonwhy_eval"))
    run, out = Path(args.run), Path(args.out)
    system = settings["judge"]["system"]
    started = time.process_time()
    judge = make_judge(system, settings, config["models"], run / "resources" / "models")
    judge.shared_prefixes = args.path == "packed"
    seconds_load = time.process_time() - started
    started = time.process_time()
    verdicts = judge_pairs(judge, pd.read_parquet(run / "results/commonwhy_eval/judge_check/check_set.parquet"))
    seconds_check = time.process_time() - started
    questions = read_questions(run / "results/commonwhy_eval/questions.parquet")
    started = time.process_time()
    judged = pd.concat(
        [
            judge_answers(judge, questions, pd.read_parquet(path)).assign(system=path.stem)
            for path in sorted((run / "results/commonwhy_eval/answers").glob("*.parquet"))
        ],
        ignore_index=True,
    )
    seconds_answers = time.process_time() - started
    verdicts.to_parquet(out / f"check-{args.path}.parquet", index=False)
    judged.to_parquet(out / f"answers-{args.path}.parquet", index=False)
    margins_of = list(judge._margins)
    margins = pd.DataFrame([(*t, judge._margins[t]) for t in margins_of], columns=["q", "r", "a", "margin"])
    margins.to_parquet(out / f"margins-{args.path}.parquet", index=False)
    ids = judge.generator.prompt_ids(
        [user(judge.template.fill(question=q, reference=r, answer=a)) for q, r, a in margins_of]
    )
    stats = {
        "path": args.path,
        "judge": system,
        "decision": judge.decision,
        "content_free_answer": CONTENT_FREE_ANSWER,
        "n_prompts": len(margins),
        "prompt_tokens": sum(len(p) for p in ids),
        "cpu_s_load": round(seconds_load, 2),
        "cpu_s_check": round(seconds_check, 2),
        "cpu_s_answers": round(seconds_answers, 2),
        "fed_tokens": None if judge._scorer is None else judge._scorer.stats.fed_tokens,
    }
    (out / f"stats-{args.path}.json").write_text(json.dumps(stats, indent=2))


def compare(out: Path, decision: str) -> dict:
    """Verdict and margin differences between the two paths (``rows`` is the reference)."""
    key = ["q", "r", "a"]
    m = pd.read_parquet(out / "margins-rows.parquet").merge(
        pd.read_parquet(out / "margins-packed.parquet"), on=key, suffixes=("_rows", "_packed"), validate="one_to_one"
    )
    m["delta"] = (m["margin_packed"] - m["margin_rows"]).abs()
    report = {"n_prompts": len(m), "max_abs_delta_margin": float(m["delta"].max())}
    if decision == "calibrated":
        base = m[m["a"] == "N/A"][["q", "r", "margin_rows", "margin_packed"]]
        d = m.merge(base, on=["q", "r"], suffixes=("", "_na"))
        d["decided_rows"] = d["margin_rows"] - d["margin_rows_na"]
        d["decided_packed"] = d["margin_packed"] - d["margin_packed_na"]
    else:
        d = m.assign(decided_rows=m["margin_rows"], decided_packed=m["margin_packed"])
    own = d["a"] == "N/A" if decision == "calibrated" else d["a"] != d["a"]
    # the content-free prompts themselves are no decision (their decided quantity is 0 by construction)
    d = d[~own]
    report["n_decided"] = len(d)
    report["min_abs_decided"] = float(d["decided_rows"].abs().min())
    report["max_abs_delta_decided"] = float((d["decided_packed"] - d["decided_rows"]).abs().max())
    report["decisions_flipped"] = int(((d["decided_rows"] > 0) != (d["decided_packed"] > 0)).sum())
    for table, columns in (("check", ["judged_yes", "n_unparsed"]), ("answers", ["correct", "n_yes", "n_references"])):
        rows, packed = pd.read_parquet(out / f"{table}-rows.parquet"), pd.read_parquet(out / f"{table}-packed.parquet")
        report[f"{table}_rows"] = len(rows)
        report[f"{table}_verdicts_differ"] = int((rows[columns] != packed[columns]).any(axis=1).sum())
        if "raw" in rows:
            report[f"{table}_raw_strings_differ"] = int((rows["raw"] != packed["raw"]).sum())
    stored = pd.read_parquet(out / "stored.parquet") if (out / "stored.parquet").exists() else None
    if stored is not None:  # the rows path reproduces the finished run's verdict file
        rows = pd.read_parquet(out / "check-rows.parquet")
        packed = pd.read_parquet(out / "check-packed.parquet")
        report["rows_raw_equal_stored_run"] = bool((rows["raw"] == stored["raw"]).all())
        report["packed_verdicts_differ_from_stored_run"] = int((packed["judged_yes"] != stored["judged_yes"]).sum())
        report["packed_raw_strings_differ_from_stored_run"] = int((packed["raw"] != stored["raw"]).sum())
        delta = (packed["raw"].astype(float) - stored["raw"].astype(float)).abs()
        report["packed_max_abs_delta_raw_vs_stored_run"] = round(float(delta.max()), 6)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", default=str(REPO_ROOT), help="a finished run: results/ and resources/models/")
    parser.add_argument("--config", default=str(REPO_ROOT / "config" / "config.yaml"))
    parser.add_argument("--out", default=str(REPO_ROOT / "benchmarks" / "results" / "judge_prefixes"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--path", choices=PATHS, help="(internal) run one path in this process")
    args = parser.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    if args.path:
        judge_once(args)
        return
    for path in PATHS:
        options = ["--run", args.run, "--config", args.config, "--out", args.out, "--threads", str(args.threads)]
        env = {**os.environ, "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")}  # as the jobs
        subprocess.run([sys.executable, __file__, *options, "--path", path], check=True, env=env)
        print(Path(args.out, f"stats-{path}.json").read_text(), flush=True)
    stats = json.loads(Path(args.out, "stats-rows.json").read_text())
    stored = Path(args.run, "results/commonwhy_eval/judge_check", f"{stats['judge']}.parquet")
    if stored.exists():
        pd.read_parquet(stored).to_parquet(Path(args.out, "stored.parquet"), index=False)
    decision = stats["decision"]
    report = compare(Path(args.out), decision)
    Path(args.out, "compare.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
