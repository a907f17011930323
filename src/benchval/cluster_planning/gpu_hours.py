"""GPU-hours a config's scoring will take, per model and in total, before anything is submitted.

    python -m benchval.cluster_planning.gpu_hours --configfile config/paper.yaml --gpu rtx-pro-6000
    python -m benchval.cluster_planning.gpu_hours --configfile config/paper.yaml --measured gpu_check.json

Tokens: the study's tasks' items, always built by each task's adapter from the raw-data mirror with
the config's own exclusions and sampling (``sample:``), as prepare_task builds them -- never read from
whatever ``results/tasks/`` happens to hold -- turned into scoring requests and counted with an
offline tokenizer (``--tokenizer``, a Hugging Face folder), or as characters / 4 where none is given.
The fast engine feeds each distinct context once and each continuation without its last token
(``unique tokens``), so that is what is counted. A task that cannot be built here (GoldenSwag needs
the Hub) is missing, with its reason, not 0.

Time per model (a formula; each input printed with where it comes from):

    compute_s = 2 x params x unique_tokens / (peak_tflops x 1e12 x mfu)
    load_s    = jobs x weights_GB / load_GBps        (jobs: n_tasks per_task, 1 per_model; one load each)
    start_s   = jobs x job_start_s                   (Python, torch, CUDA start-up while the GPUs wait)
    GPU-hours = (compute_s + load_s + start_s) x GPUs / 3600
                (GPUs: benchval.jobs.cluster_resources, as the jobs ask)

A model split over several GPUs runs its layers one GPU after the other (accelerate's device map),
so its extra GPUs add memory, not speed, and are billed for the whole job. ``peak x mfu`` is either
measured (``--measured``: the JSON of benchmarks/gpu_check.py, whose MFU counts the matmuls the engine
does: for large models this formula's count, within their embeddings' few percent) or the stated
peak of a GPU preset times an assumed MFU; load bandwidth and job start-up are stated (or the
start-up measured by gpu_check). GPU memory per card (how many GPUs a job asks for)
is the config's ``cluster.gpu_mem_gb``, a preset's, or ``--gpu-mem-gb``.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from benchval.jobs.cluster_resources import ClusterSettings, entry_resources, weights_gb
from benchval.plumbing.config import merged_config, section_defaults
from benchval.plumbing.config_error import ConfigError, unknown_name
from benchval.plumbing.folders import REPO_ROOT

log = logging.getLogger(__name__)
CHARS_PER_TOKEN = 4.0  # English text in a byte-level BPE vocabulary: about 4 characters a token


@dataclass(frozen=True)
class GpuPreset:
    memory_gb: float
    peak_tflops: float  # bf16 dense tensor
    source: str
    names: tuple[str, ...]  # what torch.cuda.get_device_name() of such a card contains


GPU_PRESETS = {
    "rtx-pro-6000": GpuPreset(
        96.0,
        503.8,
        "NVIDIA RTX PRO 6000 Blackwell, the paper's cards (Appendix A): 96 GB; 503.8 TFLOPS bf16 dense tensor "
        "(spec listing at hmc-tech.com; = NVIDIA's 4,000 FP4 sparse AI TOPS / 8)",
        ("RTX PRO 6000",),
    ),
    "h100-sxm": GpuPreset(
        80.0, 989.0, "NVIDIA H100 SXM: 80 GB; 989 TFLOPS bf16 dense (NVIDIA: 1,979 with sparsity)", ("H100 80GB HBM3",)
    ),
    "h200": GpuPreset(
        141.0, 989.0, "NVIDIA H200: 141 GB; 989 TFLOPS bf16 dense (NVIDIA: 1,979 with sparsity)", ("H200",)
    ),
    "a100-80gb": GpuPreset(
        80.0, 312.0, "NVIDIA A100 80GB: 80 GB; 312 TFLOPS bf16 dense (NVIDIA: 624 with sparsity)", ("A100",)
    ),
}


def preset_for_device(device_name: str) -> str | None:
    """The preset whose card `device_name` (torch.cuda.get_device_name) is, or None."""
    for key, preset in GPU_PRESETS.items():
        if any(name.lower() in device_name.lower() for name in preset.names):
            return key
    return None


# The paper (Appendix A): "The total cost for prompting the models was 65$", for the models it ran on
# rented GPUs (Vast.ai): those above 12B.
PAPER_COST_USD = 65.0
PAPER_RENTED_ABOVE_B = 12.0


@dataclass(frozen=True)
class Throughput:
    """The formula's inputs; ``sources`` says, per field, where each value comes from."""

    peak_tflops: float = 989.0
    mfu: float = 0.2
    load_gbps: float = 1.0
    job_start_s: float = 60.0
    sources: dict = field(default_factory=dict, compare=False)

    @property
    def achieved_tflops(self) -> float:
        return self.peak_tflops * self.mfu

    def source(self, name: str) -> str:
        return self.sources.get(name, "assumed (default)")


class MeasuredFileError(ValueError):
    """A --measured file that is not a GPU measurement of benchmarks/gpu_check.py."""


def read_measured(path: Path) -> dict:
    """peak_tflops, mfu and (when measured) job_start_s of a gpu_check JSON, each with its source."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise MeasuredFileError(f"{path}: cannot read a gpu_check JSON ({error})") from error
    speed = data.get("throughput")
    if not isinstance(speed, dict):
        raise MeasuredFileError(f"{path}: no 'throughput' section (write it with benchmarks/gpu_check.py --json)")
    device = str(data.get("device", ""))
    if not device.startswith("cuda"):
        raise MeasuredFileError(f"{path}: measured on {device or 'an unknown device'!r}, not a GPU; run it on the GPU")
    for key in ("peak_tflops", "mfu"):
        if not isinstance(speed.get(key), int | float) or not speed[key] > 0:
            raise MeasuredFileError(f"{path}: throughput.{key} is missing or not > 0 ({speed.get(key)!r})")
    where = f"measured: {path} ({data.get('device_name', device)}, {speed.get('model', 'model ?')})"
    out = {"peak_tflops": (float(speed["peak_tflops"]), where), "mfu": (float(speed["mfu"]), where)}
    if isinstance(data.get("startup_s"), int | float):
        out["job_start_s"] = (float(data["startup_s"]), f"{where}: Python, torch and CUDA start-up")
    return out


def resolve_throughput(args: argparse.Namespace) -> Throughput:
    """Flags beat --measured, which beats the --gpu preset, which beats the defaults (assumed)."""
    values = {"peak_tflops": 989.0, "mfu": 0.2, "load_gbps": 1.0, "job_start_s": 60.0}
    sources = {
        "peak_tflops": "assumed (H100 SXM bf16 dense; pass --gpu or --peak-tflops)",
        "mfu": "assumed (no measurement given; pass --measured FILE from benchmarks/gpu_check.py)",
        "load_gbps": "assumed (shared file system; pass --load-gbps)",
        "job_start_s": "assumed (pass --job-start-s, or --measured)",
    }
    if args.gpu:
        values["peak_tflops"], sources["peak_tflops"] = GPU_PRESETS[args.gpu].peak_tflops, GPU_PRESETS[args.gpu].source
    if args.measured:
        for key, (value, where) in read_measured(args.measured).items():
            values[key], sources[key] = value, where
    for key in values:
        given = getattr(args, key)
        if given is not None:
            values[key], sources[key] = given, f"stated (--{key.replace('_', '-')})"
    return Throughput(**values, sources=sources)


def task_items(task: str, config: dict) -> tuple[pd.DataFrame, str | None]:
    """The task's items as prepare_task builds them from the mirror (exclusions, sampling), and why
    none could be built (None when they were)."""
    from benchval.plumbing.folders import resolve_mirror
    from benchval.tasks.base import AdapterInput, FilterReport, TaskUnavailable, get_adapter
    from benchval.tasks.prepare import exclude_by_hand, read_exclusion_list, sample_size, subsample

    spec = config["tasks"][task]
    mirror = resolve_mirror(config.get("mirror"))
    dataset = config["datasets"].get(spec.get("dataset")) or {"files": {}}  # no dataset: the adapter fetches
    files = {key: Path(str(mirror)) / f["path"] for key, f in dataset["files"].items()}
    report = FilterReport(task)
    seed = int(config["seed"])  # required: the one seed of the run (config/config.yaml)
    try:
        items = list(
            get_adapter(spec["adapter"])(
                AdapterInput(task, files, dict(spec.get("options") or {}), seed, spec["scoring_mode"]), report
            )
        )
    except TaskUnavailable as unavailable:
        reason = str(unavailable.reason).split(": ")[0]  # without the library's message, which varies
        log.warning("task %s: unavailable (%s), not counted", task, unavailable.reason)
        return pd.DataFrame(columns=["id", "context", "options", "label", "target"]), reason
    if spec.get("exclude_ids"):
        excluded = REPO_ROOT / spec["exclude_ids"]
        items = exclude_by_hand(items, read_exclusion_list(excluded), report, str(excluded))
    items = subsample(items, sample_size(config.get("sample"), task), seed, report)
    rows = [
        {"id": i.id, "context": i.context, "options": list(i.options), "label": i.label, "target": i.target}
        for i in items
    ]
    return pd.DataFrame(rows), None


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


ItemSource = Callable[[str, dict], tuple[pd.DataFrame, "str | None"]]


def study_cost(
    config: dict,
    study: str = "default",
    throughput: Throughput = Throughput(),
    tokenizer_dir: Path | None = None,
    items: ItemSource = task_items,
    gpu_mem_gb: float | None = None,
) -> pd.DataFrame:
    """One row per model of ``study``: GPUs, jobs, tokens, compute, load and start-up hours, GPU-hours.

    ``items(task, config)`` gives a task's items and why there are none (default: built from the
    mirror); ``gpu_mem_gb`` replaces config ``cluster.gpu_mem_gb``. The table's attrs hold the tokens
    per task (``tokens_per_task``) and the tasks not counted, with their reason (``missing``).
    """
    if study not in config["studies"]:
        raise ConfigError(unknown_name("study", study, config["studies"], "the config's studies"))
    spec = config["studies"][study]
    count = counter(tokenizer_dir)
    tokens, missing = {}, {}
    for task in spec["tasks"]:
        table, reason = items(task, config)
        if reason is not None:
            missing[task] = reason
            continue
        tokens[task] = unique_tokens(table, config["tasks"][task]["scoring_mode"], count)
    settings = ClusterSettings.from_config(config.get("cluster"))
    if gpu_mem_gb is not None:
        settings = replace(settings, gpu_mem_gb=gpu_mem_gb)
    # the schema's defaults filled in, as the workflow fills them (a config here is merged, not filled)
    scoring = section_defaults("scoring", config["scoring"])
    models = section_defaults("models", config["models"])
    batch_tokens = scoring["batch_tokens"]
    n_tokens = sum(tokens.values())
    rows = []
    for name in spec["models"]:
        entry = models[name]
        layout = entry.get("scoring_jobs") or scoring["jobs"]  # the model's own layout, else scoring.jobs
        gpus = entry_resources(entry, "score", settings, batch_tokens)["gpu"] or 1
        compute_s = 2 * entry["size_b"] * 1e9 * n_tokens / (throughput.achieved_tflops * 1e12)
        jobs = len(spec["tasks"]) if layout == "per_task" else 1
        load_s = jobs * weights_gb(entry["size_b"], entry["dtype"]) / throughput.load_gbps
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
    table.attrs.update(tokens_per_task=tokens, missing=missing, gpu_mem_gb=settings.gpu_mem_gb)
    return table


def paper_comparison(table: pd.DataFrame, price_per_gpu_hour: float | None) -> str:
    """The paper's $65 beside this estimate for the same models (those above 12B)."""
    rented = table[table["size_b"] > PAPER_RENTED_ABOVE_B]
    hours = float(rented["gpu_hours"].sum())
    text = (
        f"paper: ${PAPER_COST_USD:g} for its {len(rented)} models above {PAPER_RENTED_ABOVE_B:g}B "
        f"(rented, Appendix A: {', '.join(rented['model'])}); this estimate for them: {hours:,.1f} GPU-hours"
    )
    if price_per_gpu_hour is None:
        return text + f"; $65 pays for them at ${PAPER_COST_USD / hours:,.2f} per GPU-hour (pass --price-per-gpu-hour)"
    return text + f" x ${price_per_gpu_hour:g} per GPU-hour (stated) = ${hours * price_per_gpu_hour:,.0f}"


def report_lines(table: pd.DataFrame, throughput: Throughput, tokens_source: str, gpu_mem_source: str) -> list[str]:
    """The printed report: every input with its source, the table, the total."""
    per_task = table.attrs["tokens_per_task"]
    missing = table.attrs["missing"]
    listed = [f"{t} {n:,}" for t, n in per_task.items()] + [f"{t} missing ({why})" for t, why in missing.items()]
    tp = throughput
    lines = [
        f"tokens: {tokens_source}",
        "tokens per task (fed once by the fast engine): " + ", ".join(listed),
        f"peak {tp.peak_tflops:g} TFLOPS: {tp.source('peak_tflops')}",
        f"MFU {tp.mfu:g}: {tp.source('mfu')}",
        f"weights load at {tp.load_gbps:g} GB/s: {tp.source('load_gbps')}",
        f"start-up {tp.job_start_s:g} s a job: {tp.source('job_start_s')}",
        f"GPUs of {table.attrs['gpu_mem_gb']:g} GB: {gpu_mem_source}",
        table.to_string(index=False, float_format=lambda x: f"{x:,.2f}"),
    ]
    total = table["gpu_hours"].sum()
    start = (table["start_h"] * table["gpus"]).sum()
    lines.append(
        f"total: {total:,.1f} GPU-hours over {len(table)} models ({table['tokens'].iloc[0] if len(table) else 0:,} "
        f"tokens per model{'; not counted: ' + ', '.join(missing) if missing else ''}); "
        f"start-up {start / total:.0%} of it"
    )
    return lines


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(description="GPU-hours of a config's scoring (see the module docstring)")
    out.add_argument("--configfile", type=Path, nargs="*", default=[], help="merged on top of config/config.yaml")
    out.add_argument("--study", default="default")
    out.add_argument("--tokenizer", type=Path, default=None, help="a tokenizer folder (default: chars / 4)")
    out.add_argument("--gpu", choices=sorted(GPU_PRESETS), default=None, help="GPU preset: memory and peak")
    out.add_argument("--measured", type=Path, default=None, help="the JSON of benchmarks/gpu_check.py --json")
    out.add_argument("--gpu-mem-gb", type=float, default=None, help="memory of one GPU (default: config cluster)")
    out.add_argument("--peak-tflops", type=float, default=None)
    out.add_argument("--mfu", type=float, default=None)
    out.add_argument("--load-gbps", type=float, default=None)
    out.add_argument("--job-start-s", type=float, default=None)
    out.add_argument("--price-per-gpu-hour", type=float, default=None, help="USD, to price the paper's comparison")
    return out


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    config = merged_config(*args.configfile)
    throughput = resolve_throughput(args)
    gpu_mem, gpu_mem_source = args.gpu_mem_gb, "stated (--gpu-mem-gb)"
    if gpu_mem is None and args.gpu:
        gpu_mem, gpu_mem_source = GPU_PRESETS[args.gpu].memory_gb, f"preset {args.gpu}"
    if gpu_mem is None:
        configured = (config.get("cluster") or {}).get("gpu_mem_gb")
        gpu_mem_source = (
            "config cluster.gpu_mem_gb" if configured else "assumed (benchval.jobs.cluster_resources's default)"
        )
    table = study_cost(config, args.study, throughput, args.tokenizer, gpu_mem_gb=gpu_mem)
    sampling = json.dumps(config.get("sample"), sort_keys=True)
    tokens_source = (
        f"built from the mirror by the tasks' adapters with the config's sampling (sample: {sampling}); "
        f"counted with {'the tokenizer ' + args.tokenizer.name if args.tokenizer else 'characters / 4'}"
    )
    for line in report_lines(table, throughput, tokens_source, gpu_mem_source):
        print(line)
    print(paper_comparison(table, args.price_per_gpu_hour))


if __name__ == "__main__":
    main()
