"""GPU check before renting GPUs for the rebuild: one script, no network, under 5 minutes on one GPU.

    python benchmarks/gpu_check.py                 # cuda if available, else cpu
    python benchmarks/gpu_check.py --device cpu    # the same checks on the CPU (how it is tested here)

It builds its models on the spot (random weights; benchval.testing.architectures), reads prepared
items from the tree (``results/tasks/{task}.parquet``, one task per scoring mode; else builds them
from the raw-data mirror when there is one) and prints one table:

1. exactness: the paper's six architectures (tiny, float32), fast vs reference engine on every
   scoring mode, largest difference in nats (must be <= 1e-4) and equal greedy flags;
2. throughput: a mid-sized random Llama-shaped model (``--medium-layers``/``--medium-hidden``) on the
   HellaSwag items, tokens/s of the fast engine vs lm-evaluation-harness's HFLM on the same requests
   (skipped, and said so, where lm_eval is not importable);
3. bfloat16 vs float32 on that model: share of items whose decision flips, largest log-prob change
   (random weights: a check of the numerics, not of a real model; see docs/scoring.md for real ones);
4. out-of-memory back-off (CUDA only): the GPU's memory capped so that the first batch cannot fit;
   the engine must halve its budget and give the same scores.
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
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_scoring import run_lmeval  # noqa: E402
from benchval.evaluation.metrics import predict  # noqa: E402
from benchval.scoring.base import make_scorer  # noqa: E402
from benchval.scoring.requests import build_requests  # noqa: E402
from benchval.testing.architectures import ARCHITECTURES, MODE_TASKS, real_items, vocab_size  # noqa: E402
from benchval.testing.tiny import tiny_tokenizer  # noqa: E402

ROWS: list[dict] = []


def report(check: str, setting: str, result: str, ok: bool | None) -> None:
    ROWS.append({"check": check, "setting": setting, "result": result, "ok": {True: "yes", False: "NO", None: "-"}[ok]})
    print(f"[{check}] {setting}: {result}", file=sys.stderr, flush=True)


def load_items(items_dir: Path, n: int) -> dict:
    out = {}
    for mode, task in MODE_TASKS.items():
        path = items_dir / f"{task}.parquet"
        if path.exists():
            out[mode] = pd.read_parquet(path).head(n).reset_index(drop=True)
        else:
            try:
                out[mode] = real_items(task, n)
            except FileNotFoundError as error:
                raise SystemExit(f"no prepared items {path} and no raw-data mirror ({error})") from None
    return out


def check_exactness(items: dict, device: str) -> None:
    from benchval.testing.architectures import build_architecture

    for bos in (False, True):
        tokenizer = tiny_tokenizer(bos)
        for arch in ARCHITECTURES:
            model = build_architecture(arch, vocab_size(tokenizer))
            worst, same_greedy = 0.0, True
            for mode, table in items.items():
                requests = build_requests(table, mode)
                reference = make_scorer("reference", model, tokenizer, device=device).score(requests)
                fast = make_scorer("fast", model, tokenizer, device=device, batch_tokens=512).score(requests)
                worst = max(worst, float(np.max(np.abs(fast["logprob_sum"] - reference["logprob_sum"]))))
                same_greedy &= bool((fast["is_greedy"] == reference["is_greedy"]).all())
            report(
                "exact",
                f"{arch}, {'BOS' if bos else 'no BOS'}, 4 modes",
                f"max |fast - reference| {worst:.1e} nats, greedy flags {'equal' if same_greedy else 'DIFFER'}",
                worst <= 1e-4 and same_greedy,
            )


def medium_model(tokenizer, layers: int, hidden: int):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=vocab_size(tokenizer),
        hidden_size=hidden,
        intermediate_size=hidden * 4,
        num_hidden_layers=layers,
        num_attention_heads=max(1, hidden // 64),
        num_key_value_heads=max(1, hidden // 256),
        max_position_embeddings=4096,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=2,
    )
    return LlamaForCausalLM(config).eval()


def check_speed_and_dtype(items: dict, device: str, layers: int, hidden: int, batch_tokens: int) -> None:
    tokenizer = tiny_tokenizer(False)
    requests = build_requests(items["mc"], "mc")
    model = medium_model(tokenizer, layers, hidden)
    params = sum(p.numel() for p in model.parameters()) / 1e6
    setting = f"Llama-shaped {layers} layers x {hidden}, {params:.0f}M params, {len(items['mc'])} HellaSwag items"
    scorer = make_scorer("fast", model, tokenizer, device=device, dtype="float32", batch_tokens=batch_tokens)
    scorer.score(requests.head(8))  # warm-up (kernels, allocator)
    start = time.perf_counter()
    fp32 = scorer.score(requests)
    seconds = time.perf_counter() - start
    n_tokens = scorer.stats.request_tokens
    report("speed", f"fast engine fp32, {setting}", f"{n_tokens / seconds:,.0f} tok/s (request tokens / s)", None)
    logprobs, lm_seconds, skipped = run_lmeval(scorer.model, tokenizer, requests, batch_size=16)
    text = skipped or f"{n_tokens / lm_seconds:,.0f} tok/s"
    agree = None if logprobs is None else bool(np.max(np.abs(logprobs - fp32["logprob_sum"].to_numpy())) <= 1e-3)
    report("speed", "lm-eval HFLM fp32 batch 16, same requests", text, agree)
    bf16 = make_scorer("fast", model, tokenizer, device=device, dtype="bfloat16", batch_tokens=batch_tokens).score(
        requests
    )
    delta = np.abs(bf16["logprob_sum"].to_numpy() - fp32["logprob_sum"].to_numpy())
    p32 = predict(items["mc"], fp32, "mc", "per_token")["prediction"].to_numpy()
    p16 = predict(items["mc"], bf16, "mc", "per_token")["prediction"].to_numpy()
    report(
        "bf16",
        f"vs fp32, {setting} (random weights)",
        f"{int((p32 != p16).sum())}/{len(p32)} decisions flip, max |change| {delta.max():.3g} nats",
        None,
    )


def check_oom_backoff(items: dict, device: str) -> None:
    if not device.startswith("cuda"):
        report("oom", "CUDA out-of-memory back-off", "skipped: needs CUDA (tests simulate the error on CPU)", None)
        return
    tokenizer = tiny_tokenizer(False)
    requests = build_requests(items["mc"], "mc")
    model = medium_model(tokenizer, 2, 256)
    expected = make_scorer("fast", model, tokenizer, device=device, batch_tokens=512).score(requests)
    total = torch.cuda.get_device_properties(0).total_memory
    used = torch.cuda.memory_allocated()
    scorer = make_scorer("fast", model, tokenizer, device=device, batch_tokens=1 << 20)
    # cap this process at what it holds plus ~64 MB: a 2^20-token batch's logits cannot fit
    torch.cuda.set_per_process_memory_fraction(min(1.0, (used + (64 << 20)) / total))
    try:
        got = scorer.score(requests)
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0)
    gap = float(np.max(np.abs(got["logprob_sum"] - expected["logprob_sum"])))
    ok = scorer.stats.oom_halvings > 0 and gap <= 1e-4
    report(
        "oom",
        "memory capped, batch_tokens 2^20",
        f"{scorer.stats.oom_halvings} halvings to {scorer.batch_tokens} tokens, scores within {gap:.1e} nats",
        ok,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--items-dir", type=Path, default=REPO / "results" / "tasks")
    parser.add_argument("--n-items", type=int, default=None, help="items per task (default 200 on cuda, 6 on cpu)")
    parser.add_argument("--medium-layers", type=int, default=None, help="default 16 on cuda, 2 on cpu")
    parser.add_argument("--medium-hidden", type=int, default=None, help="default 2048 on cuda, 128 on cpu")
    parser.add_argument("--batch-tokens", type=int, default=16384)
    args = parser.parse_args()
    on_gpu = args.device.startswith("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False  # exactness is checked in true float32
    torch.backends.cudnn.allow_tf32 = False
    start = time.perf_counter()
    items = load_items(args.items_dir, args.n_items or (200 if on_gpu else 6))
    exact_items = {mode: table.head(4) for mode, table in items.items()}
    check_exactness(exact_items, args.device)
    check_speed_and_dtype(
        items,
        args.device,
        args.medium_layers or (16 if on_gpu else 2),
        args.medium_hidden or (2048 if on_gpu else 128),
        args.batch_tokens,
    )
    check_oom_backoff(items, args.device)
    name = torch.cuda.get_device_name(0) if on_gpu else "CPU"
    print(f"\nbenchval GPU check on {name} ({args.device}), {time.perf_counter() - start:.0f} s\n")
    print(pd.DataFrame(ROWS).to_markdown(index=False))
    if any(row["ok"] == "NO" for row in ROWS):
        sys.exit(1)


if __name__ == "__main__":
    main()
