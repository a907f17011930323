"""GPU-hours a config's scoring will take, per model and in total, before anything is submitted.

    python -m benchval.cost --configfile config/paper.yaml

Tokens: the study's tasks' items (``results/tasks/{task}.parquet`` where prepared, else built by each
task's adapter from the raw-data mirror as prepare_task builds them, subsampled per ``sample:``) turned
into scoring requests; counted with an offline tokenizer (``--tokenizer``, a Hugging Face folder), or
as characters / 4 where none is given. The fast engine feeds each distinct context once and each
continuation without its last token (``unique tokens``), so that is what is counted.

Time per model (a documented formula, not a measurement on GPUs):

    compute_s = 2 x params x unique_tokens / (peak_tflops x 1e12 x mfu)
    load_s    = jobs x weights_GB / load_GBps        (jobs: n_tasks per_task, 1 per_model; one load each)
    start_s   = jobs x job_start_s                   (Python, torch, CUDA start-up while the GPUs wait)
    GPU-hours = (compute_s + load_s + start_s) x GPUs / 3600   (GPUs: benchval.cluster, as the jobs ask)

A model split over several GPUs runs its layers one GPU after the other (accelerate's device map),
so its extra GPUs add memory, not speed, and are billed for the whole job. The defaults (989 TFLOPS:
H100 SXM bf16 dense; MFU 0.2; 1 GB/s from a shared file system; 60 s start-up a job) are assumptions: measure your own
MFU with benchmarks/gpu_check.py and pass it.
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from benchval.cluster import ClusterSettings, entry_resources, weights_gb
from benchval.config import merged_config
from benchval.paths import REPO_ROOT

log = logging.getLogger(__name__)
CHARS_PER_TOKEN = 4.0  # English text in a byte-level BPE vocabulary: about 4 characters a token


@dataclass(frozen=True)
class Throughput:
    peak_tflops: float = 989.0
    mfu: float = 0.2
    load_gbps: float = 1.0
    job_start_s: float = 60.0


def task_items(task: str, config: dict, prepared_dir: Path) -> pd.DataFrame:
    """The task's items: the prepared table if there is one, else built from the mirror."""
    prepared = prepared_dir / f"{task}.parquet"
    if prepared.exists():
        return pd.read_parquet(prepared)
    from benchval.tasks.base import AdapterInput, FilterReport, TaskUnavailable, get_adapter
    from benchval.tasks.prepare import exclude_by_hand, read_exclusion_list, sample_size, subsample
    from benchval.config import resolve_mirror

    spec = config["tasks"][task]
    mirror = resolve_mirror(config.get("mirror"))
    dataset = config["datasets"].get(spec.get("dataset")) or {"files": {}}  # no dataset: the adapter fetches
    files = {key: Path(str(mirror)) / f["path"] for key, f in dataset["files"].items()}
    report = FilterReport(task)
    seed = int(config.get("seed", 0))
    try:
        items = list(
            get_adapter(spec["adapter"])(
                AdapterInput(task, files, dict(spec.get("options") or {}), seed, spec["scoring_mode"]), report
            )
        )
    except TaskUnavailable as unavailable:
        log.warning("task %s: unavailable (%s), counted as 0 tokens", task, unavailable.reason)
        return pd.DataFrame(columns=["id", "context", "options", "label", "target"])
    if spec.get("exclude_ids"):
        excluded = REPO_ROOT / spec["exclude_ids"]
        items = exclude_by_hand(items, read_exclusion_list(excluded), report, str(excluded))
    items = subsample(items, sample_size(config.get("sample"), task), seed, report)
    return pd.DataFrame(
        [
            {"id": i.id, "context": i.context, "options": list(i.options), "label": i.label, "target": i.target}
            for i in items
        ]
    )


def unique_tokens(items: pd.DataFrame, scoring_mode: str, count) -> int:
    """Tokens the fast engine feeds: each distinct context once, each continuation but its last token."""
    from benchval.scoring.requests import build_requests

    if items.empty:
        return 0
    requests = build_requests(items, scoring_mode)
    contexts = requests["context"].drop_duplicates().tolist()
    return sum(count(contexts)) + sum(max(n - 1, 0) for n in count(requests["continuation"].tolist()))


def counter(tokenizer_dir: Path | None):
    """texts -> token counts: the tokenizer's, or characters / CHARS_PER_TOKEN."""
    if tokenizer_dir is None:
        return lambda texts: [max(1, round(len(t) / CHARS_PER_TOKEN)) for t in texts]
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    return lambda texts: (
        [len(ids) for ids in tokenizer(list(texts), add_special_tokens=False)["input_ids"]] if texts else []
    )


def study_cost(
    config: dict,
    study: str = "default",
    throughput: Throughput = Throughput(),
    tokenizer_dir: Path | None = None,
    prepared_dir: Path = Path("results/tasks"),
) -> pd.DataFrame:
    """One row per model of ``study``: GPUs, jobs, tokens, compute and load hours, GPU-hours."""
    spec = config["studies"][study]
    count = counter(tokenizer_dir)
    tokens = {
        task: unique_tokens(task_items(task, config, prepared_dir), config["tasks"][task]["scoring_mode"], count)
        for task in spec["tasks"]
    }
    settings = ClusterSettings.from_config(config.get("cluster"))
    batch_tokens = config["scoring"]["batch_tokens"]
    rows = []
    for name in spec["models"]:
        entry = config["models"][name]
        layout = entry.get("scoring_jobs", config["scoring"].get("jobs", "per_task"))
        gpus = entry_resources(entry, "score", settings, batch_tokens)["gpu"] or 1
        n_tokens = sum(tokens.values())
        compute_s = 2 * entry["size_b"] * 1e9 * n_tokens / (throughput.peak_tflops * 1e12 * throughput.mfu)
        jobs = len(spec["tasks"]) if layout == "per_task" else 1
        load_s = jobs * weights_gb(entry["size_b"], entry.get("dtype", "float32")) / throughput.load_gbps
        start_s = jobs * throughput.job_start_s
        rows.append(
            {
                "model": name,
                "size_b": entry["size_b"],
                "gpus": gpus,
                "layout": layout,
                "jobs": jobs,
                "tokens": n_tokens,
                "compute_h": compute_s / 3600,
                "load_h": load_s / 3600,
                "start_h": start_s / 3600,
                "gpu_hours": (compute_s + load_s + start_s) * gpus / 3600,
            }
        )
    table = pd.DataFrame(rows)
    table.attrs["tokens_per_task"] = tokens
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="GPU-hours of a config's scoring (see the module docstring)")
    parser.add_argument("--configfile", type=Path, nargs="*", default=[], help="merged on top of config/config.yaml")
    parser.add_argument("--study", default="default")
    parser.add_argument("--tokenizer", type=Path, default=None, help="a tokenizer folder (default: chars / 4)")
    parser.add_argument("--prepared", type=Path, default=Path("results/tasks"), help="prepared items folder")
    parser.add_argument("--peak-tflops", type=float, default=Throughput.peak_tflops)
    parser.add_argument("--mfu", type=float, default=Throughput.mfu)
    parser.add_argument("--load-gbps", type=float, default=Throughput.load_gbps)
    parser.add_argument("--job-start-s", type=float, default=Throughput.job_start_s)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    config = merged_config(*args.configfile)
    table = study_cost(
        config,
        args.study,
        Throughput(args.peak_tflops, args.mfu, args.load_gbps, args.job_start_s),
        args.tokenizer,
        args.prepared,
    )
    print(
        "tokens per task (fed once by the fast engine): "
        + ", ".join(f"{t} {n:,}" for t, n in table.attrs["tokens_per_task"].items())
    )
    print(
        f"assumed: {args.peak_tflops:g} TFLOPS peak x MFU {args.mfu:g}; weights load at {args.load_gbps:g} GB/s; "
        f"{args.job_start_s:g} s start-up a job; "
        f"GPUs of {ClusterSettings.from_config(config.get('cluster')).gpu_mem_gb:g} GB"
    )
    print(table.to_string(index=False, float_format=lambda x: f"{x:,.2f}"))
    print(
        f"total: {table['gpu_hours'].sum():,.1f} GPU-hours over {len(table)} models "
        f"({table['tokens'].iloc[0] if len(table) else 0:,} tokens per model)"
    )


if __name__ == "__main__":
    main()
