"""Cluster resources of one scoring job. No torch here: benchval.jobs.cluster_resources imports it, and the
rule files import that while Snakemake reads the workflow."""

from __future__ import annotations

import math

BYTES_PER_PARAMETER = {"float32": 4, "bfloat16": 2, "float16": 2}
VOCAB_BOUND = 160_000  # largest vocabulary among the configured models (Qwen 2.5: 151,936), rounded up


def job_resources(size_b: float, dtype: str = "float32", batch_tokens: int = 4096, n_tasks: int = 1) -> dict[str, int]:
    """mem_mb and runtime (minutes) for scoring ``n_tasks`` tasks with a model of ``size_b`` billion parameters.

    Memory: the weights (twice, for loading), the output layer's logits of one batch (at most
    ``batch_tokens`` positions x vocabulary x 4 bytes, plus a 256-row float32 chunk) and ~2 GB of
    Python/torch/activations. Runtime: 30 minutes plus 4 hours a billion parameters and task (CPU,
    full tasks); memory does not grow with the tasks, which are scored one after another.
    """
    weights_mb = 2 * BYTES_PER_PARAMETER.get(dtype, 4) * 1000 * size_b
    logits_mb = (batch_tokens + 256) * VOCAB_BOUND * 4 / 1e6
    mem_mb = 2048 + weights_mb + logits_mb
    runtime_min = 30 + 240 * size_b * n_tasks
    return {"mem_mb": int(math.ceil(mem_mb / 256) * 256), "runtime": int(math.ceil(runtime_min))}
