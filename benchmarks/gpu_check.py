"""GPU check before renting GPUs for the rebuild: one script, no network, under 5 minutes on one GPU.

    python benchmarks/gpu_check.py --json gpu_check.json     # cuda if available, else cpu
    python -m benchval.cluster_planning.gpu_hours --configfile config/paper.yaml --measured gpu_check.json
    python benchmarks/gpu_check.py --device cpu --smoke       # tiny sizes (the test suite runs this)

It builds its models on the spot (random weights), builds its items itself from the raw-data mirror
(the first ``--n-items`` of one task per scoring mode, by the tasks' adapters; the counts it prints
are those it scored: a task with fewer items says so), and prints one table:

1. exactness: the paper's six architectures (tiny, float32), fast vs reference engine on every
   scoring mode, largest difference in nats (must be <= 1e-4) and equal greedy flags;
2. throughput: a Llama-shaped model of realistic width (default 8 layers x 4096, Llama 3's
   proportions) with the paper's largest vocabulary (Gemma 2's 256,000) on the HellaSwag items, in
   bfloat16 on a GPU (float32 on a CPU): tokens/s, achieved TFLOP/s and MFU of the fast engine, and
   lm-evaluation-harness's HFLM on the same requests (skipped, and said so, where lm_eval is not
   importable). FLOPs are the matmuls the engine really does: 2 x the non-embedding parameters at
   every fed token plus 2 x the output layer at each predicted position (attention scores left out);
   the MFU divides them by the card's bf16 dense peak (a preset of benchval.cluster_planning.gpu_hours, or
   --peak-tflops);
3. bfloat16 vs float32 on that model: share of items whose decision flips, largest log-prob change
   (random weights: a check of the numerics, not of a real model; see docs/scoring.md for real ones);
4. a model split over two GPUs (when two are visible) by the loader's planned device map, scored
   against the same model whole on one GPU;
5. out-of-memory back-off (CUDA only): torch's cache emptied, then the process capped at what it
   holds plus 64 MB, so that the first batch cannot fit; the engine must halve its budget and give
   the same scores.

It prints the versions of torch, transformers, accelerate and CUDA it ran with, the start-up time
(process start to CUDA ready), and with ``--json FILE`` writes the table and the throughput for
``benchval.cluster_planning.gpu_hours --measured FILE``. Exits non-zero if a check fails.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_scoring import run_lmeval  # noqa: E402
from benchval.cluster_planning.gpu_hours import GPU_PRESETS, preset_for_device  # noqa: E402
from benchval.evaluation.metrics import predict  # noqa: E402
from benchval.models.loader import load_model  # noqa: E402
from benchval.models.placement import Placement, is_dispatched  # noqa: E402
from benchval.scoring.scorer_factory import make_scorer  # noqa: E402
from benchval.scoring.requests import build_requests  # noqa: E402
from benchval.testing.architectures import ARCHITECTURES, MODE_TASKS, real_items, vocab_size  # noqa: E402
from benchval.testing.tiny import tiny_tokenizer  # noqa: E402

ROWS: list[dict] = []
PAPER_LARGEST_VOCAB = 256_000  # Gemma 2
SMOKE = {"n_items": 2, "layers": 1, "hidden": 64, "vocab": 4096, "architectures": ["llama", "gemma2"]}


def report(check: str, setting: str, result: str, ok: bool | None) -> None:
    ROWS.append({"check": check, "setting": setting, "result": result, "ok": {True: "yes", False: "NO", None: "-"}[ok]})
    print(f"[{check}] {setting}: {result}", file=sys.stderr, flush=True)


def versions() -> dict:
    import accelerate
    import transformers

    out = {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "accelerate": accelerate.__version__,
        "cuda (torch built with)": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
    }
    try:
        query = ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"]
        out["driver"] = subprocess.run(query, capture_output=True, text=True, timeout=20).stdout.split("\n")[0] or None
    except (OSError, subprocess.SubprocessError):
        out["driver"] = None
    return out


def load_items(n: int, mirror: Path | None = None) -> dict:
    """The first `n` items of one task per scoring mode, built from the mirror (never results/tasks/)."""
    try:
        return {mode: real_items(task, n, mirror) for mode, task in MODE_TASKS.items()}
    except FileNotFoundError as error:
        raise SystemExit(f"gpu_check builds its items from the raw-data mirror, and found none ({error})") from None


def items_setting(table: pd.DataFrame, task: str, n: int) -> str:
    return f"{len(table)} {task} items" + ("" if len(table) == n else f" (the task has only {len(table)}, not {n})")


def check_exactness(items: dict, device: str, architectures: list[str]) -> None:
    from benchval.testing.architectures import build_architecture

    for bos in (False, True):
        tokenizer = tiny_tokenizer(bos)
        for arch in architectures:
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
                f"{arch}, {'BOS' if bos else 'no BOS'}, {len(items)} modes x {len(next(iter(items.values())))} items",
                f"max |fast - reference| {worst:.1e} nats, greedy flags {'equal' if same_greedy else 'DIFFER'}",
                worst <= 1e-4 and same_greedy,
            )


def llama_config(layers: int, hidden: int, vocab: int):
    """Llama 3's proportions (MLP 3.5 x hidden, heads of 128, 4 query heads per key-value head)."""
    from transformers import LlamaConfig

    heads = max(1, hidden // 128)
    return LlamaConfig(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=max(256, round(hidden * 3.5 / 256) * 256),
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=max(1, heads // 4),
        max_position_embeddings=4096,
        tie_word_embeddings=False,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=2,
    )


def realistic_model(config, device: str):
    """Random weights, seeded, initialised on `device` (a 4B model initialises in seconds on a GPU)."""
    from transformers import LlamaForCausalLM

    torch.manual_seed(0)
    with torch.device(device):
        return LlamaForCausalLM(config).eval()


def matmul_flops(model, scorer, requests) -> float:
    """FLOPs the fast engine does: 2 x non-embedding parameters per fed (non-pad) token, plus 2 x the
    output layer per predicted position."""
    output = model.get_output_embeddings().weight.numel()
    body = sum(p.numel() for p in model.parameters()) - model.get_input_embeddings().weight.numel() - output
    predicted = sum(len(e.continuation_ids) for e in scorer.encoder.encode_frame(requests))
    return 2.0 * body * scorer.stats.real_tokens + 2.0 * output * predicted


def check_speed_and_dtype(items, device, model, tokenizer, batch_tokens, peak, skip_lmeval) -> dict:
    requests = build_requests(items["mc"], "mc")
    params = sum(p.numel() for p in model.parameters())
    cfg = model.config
    shape = f"Llama-shaped {cfg.num_hidden_layers} x {cfg.hidden_size}, vocabulary {cfg.vocab_size:,}"
    setting = f"{shape}, {params / 1e9:.2f}B params, {items_setting(items['mc'], 'HellaSwag', len(items['mc']))}"
    dtype = "bfloat16" if device.startswith("cuda") else "float32"
    fp32 = make_scorer("fast", model, tokenizer, device=device, dtype="float32", batch_tokens=batch_tokens).score(
        requests
    )  # the model's own float32 weights: the baseline of the bf16 row (and the warm-up)
    scorer = make_scorer("fast", model, tokenizer, device=device, dtype=dtype, batch_tokens=batch_tokens)
    scorer.score(requests.head(8))  # warm-up in the timed dtype (kernels, allocator)
    sync(device)
    start = time.perf_counter()
    fast = scorer.score(requests)
    sync(device)
    seconds = time.perf_counter() - start
    unique, flops = scorer.stats.unique_tokens, matmul_flops(model, scorer, requests)
    achieved = flops / seconds / 1e12
    mfu = achieved / peak[0] if peak[0] else None
    mfu_text = f"MFU {mfu:.3f} of {peak[0]:g} TFLOPS ({peak[1]})" if mfu else f"MFU missing: {peak[1]}"
    report(
        "speed",
        f"fast engine {dtype}, {setting}",
        f"{unique / seconds:,.0f} unique tok/s, {scorer.stats.request_tokens / seconds:,.0f} request tok/s, "
        f"{achieved:,.2f} TFLOP/s achieved, {mfu_text}",
        None,
    )
    throughput = {
        "model": shape,
        "dtype": dtype,
        "params": params,
        "seconds": seconds,
        "unique_tokens": unique,
        "tokens_per_s": unique / seconds,
        "matmul_flops": flops,
        "achieved_tflops": achieved,
        "peak_tflops": peak[0],
        "peak_source": peak[1],
        "mfu": mfu,
    }
    if skip_lmeval:
        report("speed", f"lm-eval HFLM {dtype} batch 16, same requests", "skipped (--skip-lmeval)", None)
    else:
        logprobs, lm_seconds, skipped = run_lmeval(scorer.model, tokenizer, requests, batch_size=16)
        text = skipped or f"{scorer.stats.request_tokens / lm_seconds:,.0f} request tok/s"
        agree = None
        if logprobs is not None:
            gap = float(np.max(np.abs(logprobs - fast["logprob_sum"].to_numpy())))
            text += f", fast engine {lm_seconds / seconds:.2f}x its speed, max |difference| {gap:.2g} nats"
            agree = gap <= 1e-3 if dtype == "float32" else None  # lm-eval takes its log-softmax in bf16
        report("speed", f"lm-eval HFLM {dtype} batch 16, same requests", text, agree)
    bf16 = fast
    if dtype == "float32":
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
    return throughput


def sync(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def check_two_gpu_split(items: dict, device: str) -> None:
    n_gpus = torch.cuda.device_count() if device.startswith("cuda") else 0
    if n_gpus < 2:
        report("split", "model over two GPUs (loader's planned map)", f"skipped: {n_gpus} GPU(s) visible", None)
        return
    tokenizer = tiny_tokenizer(False)
    model = realistic_model(llama_config(8, 1024, 32_000), "cpu")
    weights_gb = sum(p.numel() * p.element_size() for p in model.parameters()) / 1e9
    requests = build_requests(items["mc"], "mc")
    with tempfile.TemporaryDirectory() as folder:
        model.save_pretrained(folder)
        tokenizer.save_pretrained(folder)
        whole, _ = load_model(folder, Placement("cuda:0", "float32"))
        expected = make_scorer("fast", whole, tokenizer, device="cuda:0").score(requests)
        del whole
        entry = {"device": "cuda", "dtype": "float32", "max_memory_per_gpu_gb": 0.75 * weights_gb}
        split, _ = load_model(folder, Placement.from_model_entry(entry, batch_tokens=64))
        devices = sorted({str(d) for d in split.hf_device_map.values()}) if is_dispatched(split) else ["one device"]
        for engine in ("fast", "reference"):
            got = make_scorer(engine, split, tokenizer, device="cuda", dtype="float32").score(requests)
            gap = float(np.max(np.abs(got["logprob_sum"] - expected["logprob_sum"])))
            same = bool((got["is_greedy"] == expected["is_greedy"]).all())
            report(
                "split",
                f"{engine} engine, {weights_gb:.2f} GB model capped at 75% per GPU, devices {devices}",
                f"max |split - whole| {gap:.1e} nats, greedy flags {'equal' if same else 'DIFFER'}",
                is_dispatched(split) and gap <= 1e-4 and same,
            )


def check_oom_backoff(items: dict, device: str) -> None:
    if not device.startswith("cuda"):
        report("oom", "CUDA out-of-memory back-off", "skipped: needs CUDA (tests simulate the error on CPU)", None)
        return
    tokenizer = tiny_tokenizer(False)
    requests = build_requests(items["mc"], "mc")
    model = realistic_model(llama_config(2, 1024, vocab_size(tokenizer)), device)  # activations of MBs a row
    expected = make_scorer("fast", model, tokenizer, device=device, batch_tokens=512).score(requests)
    scorer = make_scorer("fast", model, tokenizer, device=device, batch_tokens=1 << 20)
    gc.collect()
    torch.cuda.empty_cache()  # cached blocks would otherwise serve the batch under the cap
    total = torch.cuda.get_device_properties(0).total_memory
    used = torch.cuda.memory_allocated()
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
        "cache emptied, memory capped at allocated + 64 MB, batch_tokens 2^20",
        f"{scorer.stats.oom_halvings} halvings to {scorer.batch_tokens} tokens, scores within {gap:.1e} nats",
        ok,
    )


def card_peak(device: str, stated: float | None) -> tuple[float | None, str]:
    """The bf16 dense peak to divide by, and where it comes from."""
    if stated:
        return stated, "stated (--peak-tflops)"
    if not device.startswith("cuda"):
        return None, "no peak for a CPU (pass --peak-tflops)"
    name = torch.cuda.get_device_name(0)
    preset = preset_for_device(name)
    if preset is None:
        return None, f"no preset for {name!r} in benchval.cluster_planning.gpu_hours.GPU_PRESETS: pass --peak-tflops"
    return GPU_PRESETS[preset].peak_tflops, f"preset {preset}"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--smoke", action="store_true", help=f"tiny sizes, for a test on a CPU: {SMOKE}")
    parser.add_argument("--n-items", type=int, default=None, help="items per task (default 200)")
    parser.add_argument("--layers", type=int, default=None, help="throughput model's layers (default 8)")
    parser.add_argument("--hidden", type=int, default=None, help="throughput model's width (default 4096)")
    parser.add_argument("--vocab", type=int, default=None, help=f"its vocabulary (default {PAPER_LARGEST_VOCAB:,})")
    parser.add_argument("--architectures", nargs="*", default=None, help=f"exactness (default {list(ARCHITECTURES)})")
    parser.add_argument("--mirror", type=Path, default=None, help="raw-data mirror (default ../shared/data/raw)")
    parser.add_argument("--batch-tokens", type=int, default=16384)
    parser.add_argument("--peak-tflops", type=float, default=None, help="the card's bf16 dense peak (default: preset)")
    parser.add_argument("--skip-lmeval", action="store_true")
    parser.add_argument("--json", type=Path, default=None, help="write the table and throughput here")
    args = parser.parse_args(argv)
    defaults = SMOKE if args.smoke else {"n_items": 200, "layers": 8, "hidden": 4096, "vocab": PAPER_LARGEST_VOCAB}
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.architectures = args.architectures or list(ARCHITECTURES)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.device.startswith("cuda"):
        torch.zeros(1, device=args.device)  # CUDA context: part of every job's start-up
    startup_s = time.time() - psutil.Process().create_time()
    start = time.perf_counter()
    torch.backends.cuda.matmul.allow_tf32 = False  # exactness is checked in true float32
    torch.backends.cudnn.allow_tf32 = False
    items = load_items(args.n_items, args.mirror)
    check_exactness({mode: table.head(4) for mode, table in items.items()}, args.device, args.architectures)
    tokenizer = tiny_tokenizer(False)
    model = realistic_model(llama_config(args.layers, args.hidden, args.vocab), args.device)
    peak = card_peak(args.device, args.peak_tflops)
    throughput = check_speed_and_dtype(items, args.device, model, tokenizer, args.batch_tokens, peak, args.skip_lmeval)
    del model
    check_two_gpu_split(items, args.device)
    check_oom_backoff(items, args.device)
    name = torch.cuda.get_device_name(0) if args.device.startswith("cuda") else "CPU"
    seconds = time.perf_counter() - start
    print(f"\nbenchval GPU check on {name} ({args.device}), {seconds:.0f} s, start-up {startup_s:.1f} s")
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()) + "\n")
    print(pd.DataFrame(ROWS).to_markdown(index=False))
    if args.json:
        out = {
            "device": args.device,
            "device_name": name,
            "gpus_visible": torch.cuda.device_count() if args.device.startswith("cuda") else 0,
            "versions": versions(),
            "startup_s": startup_s,
            "seconds": seconds,
            "n_items": {mode: len(table) for mode, table in items.items()},
            "throughput": throughput,
            "rows": ROWS,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2))
    return 1 if any(row["ok"] == "NO" for row in ROWS) else 0


if __name__ == "__main__":
    sys.exit(main())
