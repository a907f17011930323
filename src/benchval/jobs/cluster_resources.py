"""Cluster resources (memory, runtime, GPUs) of the model-heavy rules, from the model's size.

The SLURM profile (profiles/slurm/config.yaml) sets the resources of the small jobs; the jobs
whose needs grow with the model (prepare_model, score, generate) compute theirs here from the
model registry entry (`size_b`, `dtype`, `device`, `source.type` in config `models:`), so one
profile serves a 135M model on a laptop and a 72B model on several GPUs. See docs/cluster.md.

In a rule:

    resources:
        **rule_resources(config, "score"),

The numbers are upper bounds for the scheduler, not predictions:

- CPU jobs use the measured formulas of their owners: benchval.scoring.resources.job_resources
  (score/generate on the CPU: weights twice, one batch of logits, 30 min + 4 h per billion
  parameters) and benchval.models.registry.job_resources (prepare of a GGUF source: dequantising
  to float32, 2.5 GB + 6 GB per billion);
- prepare of a Hugging Face or local folder: download/copy plus one load in `dtype` for the
  sanity check: 4 GB + 1.3 x the weights, 30 min + 1 min per billion (>= 35 MB/s download);
- GPU jobs: gpu = ceil((1.2 x weights + one batch of logits) / gpu_mem_gb), at least 1; host
  RAM 4 GB + the weights once (the checkpoint passes through while loading); runtime 30 min +
  2 min (score) or 4 min (generate, autoregressive) per billion parameters -- deliberately loose:
  benchval.cluster_planning.gpu_hours's formula puts the largest full task (HellaSwag, ~1.6M tokens fed) of a 70B model
  at 20-40 min (H100 or RTX PRO 6000 peak at an assumed MFU of 0.2) against the 170 min asked;
  measure with benchmarks/gpu_check.py.

mem_mb and runtime are multiplied by the Snakemake attempt number, so a job that died of OOM or
hit its time limit is resubmitted with twice as much (the profile sets retries: 1).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from benchval.models.registry import job_resources as prepare_gguf_resources

# Bytes per parameter of the dtypes the scorer runs models in (models.schema.yaml `dtype`).
from benchval.scoring.resources import BYTES_PER_PARAMETER as BYTES_PER_PARAM
from benchval.scoring.resources import job_resources as score_cpu_resources
from benchval.plumbing.config import section_defaults

# GPU memory per byte of weights (activations, KV cache of a batch, CUDA context).
GPU_OVERHEAD = 1.2
# Host RAM per byte of weights for a one-off load on the CPU (prepare's sanity check).
CPU_RAM_OVERHEAD = 1.3
# Largest vocabulary among the paper's models (Gemma 2: 256,000), for the logits of one batch.
GPU_VOCAB_BOUND = 256_000
KINDS = ("prepare", "score", "generate")
BASE_MEM_MB = 4096
# Per kind on a GPU: (base minutes, minutes per billion parameters).
GPU_RUNTIME_MIN = {"score": (30, 2.0), "generate": (30, 4.0)}
PREPARE_RUNTIME_MIN = (30, 1.0)
# Generation on the CPU: autoregressive, so twice the scoring estimate.
CPU_GENERATE_RUNTIME_FACTOR = 2


@dataclass(frozen=True)
class ClusterSettings:
    """The optional `cluster:` config section.

    gpu_mem_gb: memory of one GPU of the partition the GPU jobs go to (80 for A100/H100 80GB,
    96 for the RTX PRO 6000 of the paper, 40 or 24 for smaller cards).
    """

    gpu_mem_gb: float = 80.0

    @classmethod
    def from_config(cls, section: Mapping[str, Any] | None) -> ClusterSettings:
        section = dict(section or {})
        unknown = set(section) - {"gpu_mem_gb"}
        if unknown:
            raise ValueError(f"config cluster: unknown key(s) {sorted(unknown)}; known: ['gpu_mem_gb']")
        settings = cls(**section)
        if not settings.gpu_mem_gb > 0:
            raise ValueError(f"config cluster.gpu_mem_gb must be > 0, got {settings.gpu_mem_gb!r}")
        return settings


def weights_gb(size_b: float, dtype: str) -> float:
    """Size of the weights in GB (1e9 bytes) for `size_b` billion parameters in `dtype`."""
    if dtype not in BYTES_PER_PARAM:
        raise ValueError(f"unknown dtype {dtype!r}; known: {sorted(BYTES_PER_PARAM)}")
    if not size_b > 0:
        raise ValueError(f"size_b must be > 0 (billions of parameters), got {size_b!r}")
    return size_b * BYTES_PER_PARAM[dtype]


def _mb(gb: float) -> int:
    """GB -> whole MB, rounded up (ignoring float noise such as 187200.00000000003)."""
    return math.ceil(round(gb * 1000, 6))


def logits_gb(batch_tokens: int) -> float:
    """GPU memory (GB) of the float32 logits of one scoring batch of `batch_tokens` positions."""
    return (batch_tokens + 256) * GPU_VOCAB_BOUND * 4 / 1e9


def gpus_needed(size_b: float, dtype: str, gpu_mem_gb: float = 80.0, batch_tokens: int = 4096) -> int:
    """GPUs of `gpu_mem_gb` each that hold the model plus its working memory (at least 1)."""
    needed_gb = weights_gb(size_b, dtype) * GPU_OVERHEAD + logits_gb(batch_tokens)
    return max(1, math.ceil(needed_gb / gpu_mem_gb))


def model_resources(
    size_b: float,
    kind: str,
    on_gpu: bool,
    *,
    dtype: str = "bfloat16",
    gpu_mem_gb: float = 80.0,
    source_type: str | None = None,
    batch_tokens: int = 4096,
    attempt: int = 1,
    n_tasks: int = 1,
) -> dict[str, int]:
    """Resources of one job of `kind` (prepare, score, generate) for a model of `size_b` billion.

    Returns {"mem_mb": host RAM in MB, "runtime": minutes, "gpu": number of GPUs}; mem_mb and
    runtime are scaled by `attempt`. `gpu` is 0 when `on_gpu` is false and always 0 for prepare
    (a CPU job). `batch_tokens` is config scoring.batch_tokens. A score job of `n_tasks` tasks
    (scoring.jobs: per_model) gets the per-billion part of the runtime once per task.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r}; known: {list(KINDS)}")
    if attempt < 1:
        raise ValueError(f"attempt must be >= 1, got {attempt!r}")
    weights = weights_gb(size_b, dtype)
    gpu = 0
    if kind == "prepare" and source_type == "gguf_wheels":
        base = prepare_gguf_resources(size_b)
    elif kind == "prepare":
        base_min, per_b_min = PREPARE_RUNTIME_MIN
        base = {
            "mem_mb": BASE_MEM_MB + _mb(weights * CPU_RAM_OVERHEAD),
            "runtime": math.ceil(base_min + per_b_min * size_b),
        }
    elif on_gpu:
        base_min, per_b_min = GPU_RUNTIME_MIN[kind]
        base = {
            "mem_mb": BASE_MEM_MB + _mb(weights),
            "runtime": math.ceil(base_min + per_b_min * size_b * (n_tasks if kind == "score" else 1)),
        }
        gpu = gpus_needed(size_b, dtype, gpu_mem_gb, batch_tokens)
    else:
        base = score_cpu_resources(size_b, dtype, batch_tokens, n_tasks if kind == "score" else 1)
        if kind == "generate":
            base = {**base, "runtime": base["runtime"] * CPU_GENERATE_RUNTIME_FACTOR}
    return {"mem_mb": attempt * base["mem_mb"], "runtime": attempt * base["runtime"], "gpu": gpu}


def entry_resources(
    entry: Mapping[str, Any],
    kind: str,
    settings: ClusterSettings,
    batch_tokens: int,
    attempt: int = 1,
    n_tasks: int = 1,
) -> dict[str, int]:
    """model_resources for one `models:` config entry, its schema defaults filled in (`device`, `dtype`:
    benchval.plumbing.config.fill_defaults, as the workflow fills them); the size is `job_size_b` where the
    entry sets it, else `size_b`."""
    return model_resources(
        float(entry.get("job_size_b") or entry["size_b"]),
        kind,
        on_gpu=entry["device"] == "cuda",
        dtype=entry["dtype"],
        gpu_mem_gb=settings.gpu_mem_gb,
        source_type=(entry.get("source") or {}).get("type"),
        batch_tokens=batch_tokens,
        attempt=attempt,
        n_tasks=n_tasks,
    )


# A generation job whose system is a remote endpoint (not a configured model): a light CPU job.
ENDPOINT_RESOURCES = {"mem_mb": 2000, "runtime": 120, "gpu": 0}


@functools.cache
def _scoring_defaults() -> dict:
    """The `scoring:` schema defaults, read once: the workflow fills them into its config, a rule file used on
    its own (a test's workflow) may have no `scoring:` section."""
    return section_defaults("scoring")


def rule_resources(
    config: Mapping[str, Any], kind: str, wildcard: str = "model", model: str | None = None, n_tasks: int = 1
) -> dict[str, Callable[..., int]]:
    """Snakemake `resources:` callables (mem_mb, runtime, gpu) of a rule that runs one model.

    Use as `resources: **rule_resources(config, "score")` in a rule with a {model} wildcard;
    `wildcard="system"` where the model name is in another wildcard, or `model=<name>` for a
    rule that always runs the same model. Reads config `models`, `scoring.batch_tokens` and the
    optional `cluster` section. For kind "generate", a name that is not a configured model is a
    remote endpoint and gets ENDPOINT_RESOURCES. `n_tasks`: tasks one score job scores (per-model
    jobs). Each callable takes (wildcards, attempt).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown job kind {kind!r}; known: {list(KINDS)}")
    models = config["models"]
    settings = ClusterSettings.from_config(config.get("cluster"))
    batch_tokens = int({**_scoring_defaults(), **(config.get("scoring") or {})}["batch_tokens"])

    def resource(name: str) -> Callable[..., int]:
        def value(wildcards, attempt=1):
            chosen = model if model is not None else getattr(wildcards, wildcard)
            if chosen not in models:
                if kind == "generate":
                    return ENDPOINT_RESOURCES[name] * (attempt if name != "gpu" else 1)
                raise KeyError(f"model {chosen!r} is not in config models: {sorted(models)}")
            return entry_resources(models[chosen], kind, settings, batch_tokens, attempt, n_tasks)[name]

        value.__name__ = f"{kind}_{name}"
        return value

    return {name: resource(name) for name in ("mem_mb", "runtime", "gpu")}
