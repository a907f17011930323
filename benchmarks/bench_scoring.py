"""Benchmark the scoring engines on HellaSwag: fast engine vs lm-evaluation-harness vs naive reference.

One run, same machine, same model object, same (context, continuation) pairs:

- ``fast``: benchval's engine (:mod:`benchval.scoring.engine`);
- ``lm-eval``: lm-evaluation-harness 0.4.13 ``HFLM.loglikelihood`` (needs ``pip install '.[bench]'``);
- ``naive``: one pair per forward pass (:mod:`benchval.scoring.reference`), the exactness oracle.

Pairs are built as lm-evaluation-harness's ``hellaswag`` task builds them (its ``preprocess`` of the
WikiHow markup; context = activity label + ": " + ctx_a + " " + capitalised ctx_b; continuation =
" " + ending). Items are the first ``--n-items`` rows of the raw validation file.

Reported per method: wall seconds, tokens/s (tokens = context + continuation tokens of every pair,
the same numerator for every method), fed tokens (positions the model computed, padding included)
and fed / unique tokens (unique = each distinct context once + each continuation without its last
token), max |summed log-prob - naive| and accuracy. With ``--repeats N`` the fast engine and
lm-eval run N times alternately and the best time of each is reported (a shared machine's load
varies). Usage::

    .venv/bin/python benchmarks/bench_scoring.py --model-dir resources/models/smollm2-135m --n-items 200

Before and after a change to the package: ``--before main`` runs the fast engine and lm-eval twice in
fresh processes, once with the package of that git ref (``git archive``) and once with this tree's,
on the same model and items (``--repeats`` alternating the two), and prints their tok/s and their
ratio to lm-eval side by side, with the largest difference between the two engines' log-probs and
whether every decision is the same::

    .venv/bin/python benchmarks/bench_scoring.py --before main --n-items 200 --repeats 3 --skip-naive \
        --json benchmarks/results/bench_scoring-before-after.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.base import unique_token_count
from benchval.scoring.requests import build_requests
from benchval.models.loader import load_model
from benchval.models.placement import Placement, input_device

DEFAULT_MODEL = REPO_ROOT / "resources" / "models" / "smollm2-135m"


# -- HellaSwag as lm-evaluation-harness 0.4.13 builds it (lm_eval/tasks/hellaswag/utils.py) ---------


def preprocess(text: str) -> str:
    text = text.strip()
    text = text.replace(" [title]", ". ")
    text = re.sub("\\[.*?\\]", "", text)
    text = text.replace("  ", " ")
    return text


def hellaswag_items(path: Path, n_items: int) -> pd.DataFrame:
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            if len(rows) == n_items:
                break
            doc = json.loads(line)
            ctx = doc["ctx_a"] + " " + doc["ctx_b"].capitalize()
            rows.append(
                {
                    "id": f"hellaswag-val-{line_no:05d}",
                    "context": preprocess(doc["activity_label"] + ": " + ctx),
                    "options": [" " + preprocess(e) for e in doc["endings"]],
                    "label": int(doc["label"]),
                    "source_row": line_no,
                }
            )
    return pd.DataFrame(rows)


# -- measuring -------------------------------------------------------------------------------------


class FedTokenCounter:
    """Counts the positions every forward pass of ``model`` computes (input_ids.numel())."""

    def __init__(self, model):
        self.fed = 0
        self.calls = 0
        self.handle = model.register_forward_pre_hook(self._hook, with_kwargs=True)

    def _hook(self, module, args, kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is not None:
            self.fed += ids.numel()
            self.calls += 1

    def reset(self):
        self.fed, self.calls = 0, 0

    def close(self):
        self.handle.remove()


def run_benchval(
    engine: str, model, tokenizer, requests: pd.DataFrame, batch_tokens: int, device: str
) -> tuple[np.ndarray, float, dict]:
    scorer = make_scorer(engine, model, tokenizer, batch_tokens=batch_tokens, device=device, progress=False)
    start = time.perf_counter()
    scores = scorer.score(requests)
    seconds = time.perf_counter() - start
    return scores["logprob_sum"].to_numpy(), seconds, scorer.stats.as_dict()


def run_lmeval(
    model, tokenizer, requests: pd.DataFrame, batch_size: int
) -> tuple[np.ndarray | None, float | None, str | None]:
    """lm-evaluation-harness HFLM's summed log-probs of the requests and its seconds, with no skip
    reason; (None, None, why) where lm_eval is not importable."""
    try:
        from lm_eval.api.instance import Instance
        from lm_eval.models.huggingface import HFLM
    except ImportError as error:
        return None, None, f"lm_eval not importable ({error}): skipped"
    lm = HFLM(pretrained=model, tokenizer=tokenizer, batch_size=batch_size, device=str(input_device(model)))
    instances = [
        Instance(request_type="loglikelihood", doc={}, arguments=(c, o), idx=i)
        for i, (c, o) in enumerate(zip(requests["context"], requests["continuation"]))
    ]
    start = time.perf_counter()
    out = lm.loglikelihood(instances, disable_tqdm=True)
    seconds = time.perf_counter() - start
    return np.array([lp for lp, _ in out], dtype=np.float64), seconds, None


def accuracy(requests: pd.DataFrame, logprobs: np.ndarray, labels: dict) -> float:
    frame = requests.assign(lp=logprobs)
    best = frame.loc[frame.groupby("item_id")["lp"].idxmax(), ["item_id", "option_index"]]
    return float(np.mean([labels[i] == o for i, o in zip(best["item_id"], best["option_index"])]))


def tiny_model_dir() -> Path:
    """A random-weight llama with a byte-level BPE tokenizer (used when no prepared model exists)."""
    sys.path.insert(0, str(REPO_ROOT / "tests" / "scoring"))
    from scoring_fixtures import make_llama, make_tokenizer, save_model  # noqa: E402

    folder = Path(tempfile.mkdtemp(prefix="bench-tiny-"))
    tok = make_tokenizer(False)
    return save_model(make_llama(len(tok)), tok, folder)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", type=Path, default=None, help=f"prepared HF folder (default {DEFAULT_MODEL})")
    parser.add_argument("--data", type=Path, default=None, help="hellaswag_val.jsonl (default: the mirror's)")
    parser.add_argument("--n-items", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--batch-tokens", type=int, default=1024, help="fast engine token budget (1024 is fastest on a 2-core CPU)"
    )
    parser.add_argument("--lmeval-batch-size", type=int, default=16)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--skip-naive", action="store_true", help="skip the slow one-pair-per-forward reference")
    parser.add_argument("--repeats", type=int, default=1, help="alternate fast and lm-eval this often; best time kept")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument("--logprobs", action="store_true", help="keep each method's log-probs in the JSON")
    parser.add_argument("--before", default=None, metavar="GIT_REF", help="compare with the package of GIT_REF")
    args = parser.parse_args(argv)
    if args.before:
        return before_and_after(args, argv if argv is not None else sys.argv[1:])

    torch.set_num_threads(args.threads)
    model_dir = args.model_dir or (DEFAULT_MODEL if (DEFAULT_MODEL / "config.json").exists() else None)
    if model_dir is None:
        model_dir = tiny_model_dir()
        print(f"NOTE: no prepared model at {DEFAULT_MODEL}; using a tiny RANDOM model in {model_dir}")
    data = args.data or (default_mirror() or Path("/nonexistent")) / "hellaswag" / "hellaswag_val.jsonl"
    if not data.exists():
        raise SystemExit(f"HellaSwag validation file not found: {data} (pass --data)")
    model, tokenizer = load_model(model_dir, Placement(args.device, "float32"))
    model.eval()
    items = hellaswag_items(data, args.n_items)
    requests = build_requests(items, "mc")
    labels = dict(zip(items["id"], items["label"]))
    scorer = make_scorer("reference", model, tokenizer, device=args.device)
    encoded = scorer.encoder.encode_frame(requests)
    request_tokens = sum(e.length for e in encoded)
    unique = unique_token_count(encoded)
    print(
        f"model {model_dir} ({type(model).__name__}, {sum(p.numel() for p in model.parameters()) / 1e6:.0f}M), "
        f"{len(items)} items, {len(requests)} pairs, {request_tokens} pair tokens, {unique} unique tokens, "
        f"{sum(e.boundary_fallback for e in encoded)} boundary fallbacks, threads {args.threads}"
    )

    counter = FedTokenCounter(model)
    with torch.inference_mode():
        model(input_ids=torch.tensor([encoded[0].context_ids], device=input_device(model)))  # warm-up
    lm_key = f"lm-eval bs={args.lmeval_batch_size}"
    runners = {
        "fast": lambda: run_benchval("fast", model, tokenizer, requests, args.batch_tokens, args.device)[:2],
        lm_key: lambda: run_lmeval(model, tokenizer, requests, args.lmeval_batch_size),
    }
    if not args.skip_naive:
        runners["naive"] = lambda: run_benchval(
            "reference", model, tokenizer, requests, args.batch_tokens, args.device
        )[:2]
    results: dict[str, dict] = {}
    for repeat in range(args.repeats):  # methods alternate, so that a change in machine load hits all of them
        for name, runner in runners.items():
            if name == "naive" and repeat > 0:
                continue  # the oracle is slow; its speed matters least
            counter.reset()
            logprobs, seconds, *skipped = runner()
            if logprobs is None:
                print(
                    f"!! {skipped[0]}: no lm-eval column and no ratio. Install it with: "
                    ".venv/bin/pip install lm-eval==0.4.13  (pyproject extra 'bench')",
                    flush=True,
                )
                runners = {k: v for k, v in runners.items() if k != lm_key}
                continue
            print(
                f"  [{repeat + 1}/{args.repeats}] {name}: {seconds:.1f}s, {request_tokens / seconds:.0f} tok/s, "
                f"{counter.calls} forwards, {counter.fed} fed tokens",
                flush=True,
            )
            best = results.setdefault(
                name,
                {
                    "logprobs": logprobs,
                    "seconds": seconds,
                    "fed": counter.fed,
                    "forwards": counter.calls,
                    "all_seconds": [],
                },
            )
            best["all_seconds"].append(seconds)
            best["seconds"] = min(best["all_seconds"])
    counter.close()
    if lm_key not in results:
        lm_key = None

    oracle = results.get("naive", {}).get("logprobs")
    report = {
        "model": str(model_dir),
        "n_items": len(items),
        "n_pairs": len(requests),
        "request_tokens": request_tokens,
        "unique_tokens": unique,
        "threads": args.threads,
        "batch_tokens": args.batch_tokens,
        "methods": {},
    }
    print(
        f"\n{'method':<16}{'seconds':>9}{'tok/s':>9}{'vs lm-eval':>12}{'forwards':>10}{'fed/unique':>12}"
        f"{'max|d| vs naive':>17}{'acc':>7}"
    )
    for name, r in results.items():
        tok_s = request_tokens / r["seconds"]
        ratio = tok_s / (request_tokens / results[lm_key]["seconds"]) if lm_key else float("nan")
        diff = float(np.max(np.abs(r["logprobs"] - oracle))) if oracle is not None else float("nan")
        acc = accuracy(requests, r["logprobs"], labels)
        report["methods"][name] = {
            "seconds": r["seconds"],
            "all_seconds": r["all_seconds"],
            "tokens_per_s": tok_s,
            "ratio_vs_lmeval": ratio,
            "forwards": r["forwards"],
            "fed_tokens": r["fed"],
            "fed_over_unique": r["fed"] / unique,
            "max_abs_diff_vs_naive": diff,
            "accuracy": acc,
        }
        if args.logprobs:
            report["methods"][name]["logprobs"] = r["logprobs"].tolist()
        print(
            f"{name:<16}{r['seconds']:>9.1f}{tok_s:>9.0f}{ratio:>11.2f}x{r['forwards']:>10}{r['fed'] / unique:>12.2f}"
            f"{diff:>17.2e}{acc:>7.3f}"
        )
    fast = report["methods"]["fast"]
    if lm_key:
        verdict = "MET" if fast["ratio_vs_lmeval"] >= 3 and fast["max_abs_diff_vs_naive"] <= 1e-4 else "NOT MET"
        print(
            f"\ntarget (>= 3x lm-eval tok/s and max|d| <= 1e-4 nats): {verdict} "
            f"({fast['ratio_vs_lmeval']:.2f}x, {fast['max_abs_diff_vs_naive']:.1e})"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2))
    return report


def _without(argv: list[str], flag: str, takes_value: bool) -> list[str]:
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == flag:
            skip = takes_value
        elif not arg.startswith(flag + "="):
            out.append(arg)
    return out


def before_and_after(args, argv: list[str]) -> dict:
    """Run this benchmark with the package of ``args.before`` and with this tree's; print side by side."""
    here = Path(__file__).resolve().parents[1]
    model_dir = args.model_dir or DEFAULT_MODEL
    data = args.data or (default_mirror() or Path("/nonexistent")) / "hellaswag" / "hellaswag_val.jsonl"
    base = _without(
        _without(_without(_without(argv, "--before", True), "--json", True), "--repeats", True), "--model-dir", True
    )
    base = _without(base, "--data", True) + ["--model-dir", str(model_dir), "--data", str(data), "--logprobs"]
    with tempfile.TemporaryDirectory(prefix="bench-before-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(here), "archive", args.before, "src", "workflow", "config"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        sides = {f"before ({args.before})": Path(tmp) / "src", "after (this tree)": here / "src"}
        runs: dict[str, list[dict]] = {side: [] for side in sides}
        for repeat in range(args.repeats):  # alternate, so that a change in the machine's load hits both
            for side, src in sides.items():
                out = Path(tmp) / f"{len(runs[side])}-{side.split()[0]}.json"
                env = {**os.environ, "PYTHONPATH": str(src)}
                print(f"== [{repeat + 1}/{args.repeats}] {side}", flush=True)
                subprocess.run([sys.executable, __file__, *base, "--json", str(out)], env=env, check=True)
                runs[side].append(json.loads(out.read_text()))
    best = {side: _best_of(results) for side, results in runs.items()}
    (before, after), names = best.values(), list(best)
    methods = [m for m in after["methods"] if m in before["methods"]]
    print(f"\n{'method':<16}" + "".join(f"{n + ' tok/s':>26}{'vs lm-eval':>12}" for n in names))
    for method in methods:
        cells = "".join(
            f"{best[n]['methods'][method]['tokens_per_s']:>26.0f}{best[n]['methods'][method]['ratio_vs_lmeval']:>11.2f}x"
            for n in names
        )
        print(f"{method:<16}{cells}")
    fast_before = np.array(before["methods"]["fast"]["logprobs"])
    fast_after = np.array(after["methods"]["fast"]["logprobs"])
    gap = float(np.max(np.abs(fast_after - fast_before)))
    same = before["methods"]["fast"]["accuracy"] == after["methods"]["fast"]["accuracy"] and _same_decisions(
        args, model_dir, data, fast_before, fast_after
    )
    print(
        f"fast engine, after vs before: max |log-prob difference| {gap:.1e} nats, "
        f"decisions {'identical' if same else 'DIFFER'}"
    )
    summary = {"before_ref": args.before, "sides": best, "fast_max_abs_diff": gap, "decisions_identical": same}
    for side in best.values():
        for method in side["methods"].values():
            method.pop("logprobs", None)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=2))
    return summary


def _best_of(results: list[dict]) -> dict:
    """The first run's report with each method's best time over the runs (and its tok/s and ratio)."""
    out = json.loads(json.dumps(results[0]))
    for name, method in out["methods"].items():
        seconds = min(r["methods"][name]["seconds"] for r in results)
        method.update(seconds=seconds, tokens_per_s=out["request_tokens"] / seconds)
    lm = next((m for m in out["methods"] if m.startswith("lm-eval")), None)
    for method in out["methods"].values():
        method["ratio_vs_lmeval"] = method["tokens_per_s"] / out["methods"][lm]["tokens_per_s"] if lm else float("nan")
    return out


def _same_decisions(args, model_dir, data, before: np.ndarray, after: np.ndarray) -> bool:
    """Whether every item's highest-scoring option is the same under both log-prob vectors."""
    items = hellaswag_items(data, args.n_items)
    requests = build_requests(items, "mc")
    pick = lambda lp: requests.assign(lp=lp).groupby("item_id")["lp"].idxmax().sort_index().tolist()  # noqa: E731
    return pick(before) == pick(after)


if __name__ == "__main__":
    main()
