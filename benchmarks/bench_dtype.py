"""bfloat16 vs float32 on the prepared real models: how many decisions flip, how far log-probs move.

For each prepared model (resources/models/<name>/) and a few tasks' real items (one task per
scoring mode, built from the raw-data mirror by the tasks' adapters: benchval.testing.architectures),
the fast engine scores the same requests with the model in float32 and in bfloat16 (softmax in
float32 either way, as in the workflow). Reported per (model, task): items, the share of items whose
predicted option (benchval.evaluation.metrics.predict, per-token normalisation as config.yaml) differs, and
the largest absolute change of a request's summed log-prob (nats). Prints one markdown table.

    python benchmarks/bench_dtype.py --n-items 40 --threads 2
    python benchmarks/bench_dtype.py --n-items 100 --threads 2 --csv benchmarks/results/bench_dtype-100.csv
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from benchval.evaluation.metrics import predict  # noqa: E402
from benchval.scoring.scorer_factory import make_scorer  # noqa: E402
from benchval.scoring.requests import build_requests  # noqa: E402
from benchval.models.loader import load_model  # noqa: E402
from benchval.testing.architectures import MODE_TASKS, real_items  # noqa: E402

MODELS = ["smollm2-135m", "gemma3-270m", "qwen2.5-coder-0.5b"]


def compare(model_dir: Path, items_by_task: dict, normalisation: str) -> list[dict]:
    scores = {}
    for dtype in ("float32", "bfloat16"):
        model, tokenizer = load_model(model_dir)
        scorer = make_scorer("fast", model, tokenizer, dtype=dtype)
        for task, (mode, items) in items_by_task.items():
            start = time.perf_counter()
            scores[dtype, task] = scorer.score(build_requests(items, mode))
            print(f"  {model_dir.name} {dtype} {task}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
        del model, scorer
    rows = []
    for task, (mode, items) in items_by_task.items():
        fp32, bf16 = scores["float32", task], scores["bfloat16", task]
        delta = np.abs(bf16["logprob_sum"].to_numpy() - fp32["logprob_sum"].to_numpy())
        p32 = predict(items, fp32, mode, normalisation).set_index("id")["prediction"]
        p16 = predict(items, bf16, mode, normalisation).set_index("id")["prediction"]
        flips = int((p32 != p16.loc[p32.index]).sum())
        rows.append(
            {
                "model": model_dir.name,
                "task": task,
                "mode": mode,
                "items": len(items),
                "flipped": flips,
                "flipped_share": flips / len(items),
                "max_abs_logprob_change": float(delta.max()),
                "median_abs_logprob_change": float(np.median(delta)),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-items", type=int, default=40)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--models", nargs="*", default=MODELS)
    parser.add_argument("--normalisation", default="per_token")
    parser.add_argument("--csv", type=Path, default=None, help="also write the table here (benchmarks/results/)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    items_by_task = {task: (mode, real_items(task, args.n_items)) for mode, task in MODE_TASKS.items()}
    rows = []
    for name in args.models:
        folder = REPO / "resources" / "models" / name
        if not (folder / "benchval-model.json").exists():
            print(f"{name}: not prepared ({folder}), skipped", file=sys.stderr)
            continue
        rows.extend(compare(folder, items_by_task, args.normalisation))
    table = pd.DataFrame(rows)
    print(table.to_markdown(index=False, floatfmt=".3g"))
    if args.csv:
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(args.csv, index=False)
    total = table.groupby("model")[["items", "flipped"]].sum()
    print(
        "\nper model, all tasks: " + "; ".join(f"{m} {r['flipped']}/{r['items']} flipped" for m, r in total.iterrows())
    )


if __name__ == "__main__":
    main()
