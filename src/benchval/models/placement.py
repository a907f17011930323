"""Where a model's layers go: one device, or an accelerate device map across the job's GPUs.

A model entry (config `models:`) says `device` and `dtype`. On `device: cuda` every visible GPU (SLURM
sets CUDA_VISIBLE_DEVICES to the job's GPUs) gets an explicit weight cap (:func:`gpu_weight_caps`):
90% of the card (CUDA context, activations, allocator), no more than the entry's
`max_memory_per_gpu_gb`, and on the GPU that holds the output layer less the float32 logits of one
batch. Host RAM holds weights only with `cpu_offload_gb`, on top of the GPUs (moved to a GPU layer by
layer at each forward: slow). Before any weight is read, :func:`plan_device_map` lays the model out
on the meta device (accelerate's balanced map over the fewest GPUs that hold it) and raises
:class:`ModelDoesNotFit`, with the numbers, when the declared devices cannot hold it; the loader then
loads with that explicit map. docs/cluster.md says how to set the caps.

Scoring (benchval.scoring) and generation (benchval.generation.hf) both load through
:func:`benchval.models.loader.load_model` with a :class:`Placement`, and feed their inputs to
:func:`input_device`; outputs are read on the logits' own device.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import torch

# Keyword arguments the dispatched model must not move to its first device: the fast engine's
# boolean `logits_to_keep` indexes the last layer's hidden states, on the last GPU (a CPU index
# tensor may index a tensor on any device; one on another GPU may not).
KEEP_IN_PLACE = ("logits_to_keep",)
# Share of each GPU kept free of weights: CUDA context, activations, the allocator's slack
# (accelerate's own margin when it is given no max_memory).
GPU_HEADROOM = 0.10
# Logits rows beyond batch_tokens (the fast engine's rows are padded to the batch's widest row).
LOGITS_SLACK_TOKENS = 256
DEFAULT_BATCH_TOKENS = 4096  # scoring.schema.yaml's default batch_tokens
GB = 1e9


class ModelDoesNotFit(RuntimeError):
    """The declared devices cannot hold the model's weights (raised before loading any)."""


@dataclass(frozen=True)
class Placement:
    """How to place a loaded model.

    device_map: None (the whole model on `device`), "auto" (planned by :func:`plan_device_map` on
    the meta device before loading, within `max_memory`), or an explicit {module name: device}
    (devices: a GPU index, "cpu", "disk"); max_memory: {GPU index or "cpu": bytes of weights};
    offload_folder: where modules mapped to "disk" live; batch_tokens: the scoring batch budget,
    whose float32 logits are reserved on the output layer's GPU.
    """

    device: str = "cpu"
    dtype: str = "float32"
    device_map: str | dict[str, Any] | None = None
    max_memory: dict[Any, int] | None = None
    offload_folder: str | None = None
    batch_tokens: int = DEFAULT_BATCH_TOKENS

    @classmethod
    def from_model_entry(
        cls,
        entry: Mapping[str, Any],
        *,
        batch_tokens: int | None = None,
        gpu_memory_gb: Sequence[float] | None = None,
    ) -> Placement:
        """The placement a `models:` entry asks for on this machine (see the module docstring).

        `gpu_memory_gb`: memory of each visible GPU (default: read from CUDA); `batch_tokens`:
        config scoring.batch_tokens.
        """
        device = resolve_device(entry.get("device", "cpu"))
        dtype = entry.get("dtype", "float32")
        if not device.startswith("cuda"):
            return cls(device, dtype)
        cards = list(gpu_memory_gb) if gpu_memory_gb is not None else visible_gpu_memory_gb()
        max_memory = gpu_weight_caps(cards, entry.get("max_memory_per_gpu_gb"))
        max_memory["cpu"] = round((entry.get("cpu_offload_gb") or 0) * GB)
        return cls(device, dtype, "auto", max_memory, batch_tokens=batch_tokens or DEFAULT_BATCH_TOKENS)

    def from_pretrained_kwargs(self) -> dict[str, Any]:
        """The device-map arguments of transformers' from_pretrained (none for one device)."""
        if self.device_map is None:
            return {}
        if self.device_map == "auto":
            raise ValueError("plan the device map first (benchval.models.placement.plan_device_map)")
        extra = {"offload_folder": self.offload_folder}
        return {"device_map": self.device_map, **{k: v for k, v in extra.items() if v is not None}}


def visible_gpu_memory_gb() -> list[float]:
    """Total memory (GB) of each GPU this process sees (the SLURM job's GPUs)."""
    return [torch.cuda.get_device_properties(i).total_memory / GB for i in range(torch.cuda.device_count())]


def gpu_weight_caps(cards_gb: Sequence[float], per_gpu_gb: float | None = None) -> dict[int, int]:
    """{GPU index: bytes of weights it may hold}: 90% of each card, at most `per_gpu_gb`."""
    if not cards_gb:
        from benchval.models.placement import ModelLoadError

        raise ModelLoadError("device 'cuda' requested but no GPU is visible (CUDA_VISIBLE_DEVICES)")
    limit = math.inf if per_gpu_gb is None else per_gpu_gb
    return {i: round(min(limit, card * (1 - GPU_HEADROOM)) * GB) for i, card in enumerate(cards_gb)}


def logits_bytes(batch_tokens: int, vocab_size: int) -> int:
    """Float32 logits of one scoring batch (on the GPU of the output layer)."""
    return (batch_tokens + LOGITS_SLACK_TOKENS) * vocab_size * 4


def meta_model(model_config, dtype: str):
    """The model of `model_config` on the meta device (shapes and dtypes, no memory)."""
    from accelerate import init_empty_weights
    from transformers import AutoModelForCausalLM

    from benchval.models.placement import resolve_dtype

    with init_empty_weights():
        return AutoModelForCausalLM.from_config(model_config, dtype=resolve_dtype(dtype))


def _layout(model, caps: dict[Any, int]) -> dict[str, Any]:
    """accelerate's balanced device map of `model` within `caps` (as from_pretrained's "auto")."""
    from transformers.integrations.accelerate import get_balanced_memory, infer_auto_device_map

    no_split = model._no_split_modules
    accelerate_log = logging.getLogger("accelerate.utils.modeling")
    level = accelerate_log.level
    accelerate_log.setLevel(logging.ERROR)  # "Device 0 is not available" when planning off the GPU
    try:
        balanced = get_balanced_memory(model, max_memory=dict(caps), no_split_module_classes=no_split)
        return infer_auto_device_map(model, max_memory=balanced, no_split_module_classes=no_split)
    finally:
        accelerate_log.setLevel(level)


def plan_device_map(model_config, placement: Placement, name: str = "model", meta=None) -> dict[str, Any]:
    """The explicit device map of the model of `model_config` under `placement` ("auto"), planned
    on the meta device (`meta`: that model, already built): the fewest GPUs (from 0) that hold it,
    host RAM only within the offload allowance and once every GPU is in use, never the disk.
    Raises :class:`ModelDoesNotFit` with the numbers."""
    model = meta if meta is not None else meta_model(model_config, placement.dtype)
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    weights += sum(b.numel() * b.element_size() for b in model.buffers())
    gpus = sorted(k for k in placement.max_memory if isinstance(k, int))
    cpu = placement.max_memory.get("cpu", 0)
    logits = logits_bytes(placement.batch_tokens, model_config.get_text_config().vocab_size)
    for used in range(1, len(gpus) + 1):
        caps = {i: placement.max_memory[i] for i in gpus[:used]}
        caps[gpus[used - 1]] = max(0, caps[gpus[used - 1]] - logits)
        host = cpu if used == len(gpus) else 0  # host RAM only once every GPU is in use
        if sum(caps.values()) + host < weights:
            continue
        device_map = _layout(model, {**caps, "cpu": host})
        if "disk" not in device_map.values():
            return device_map
    raise ModelDoesNotFit(_does_not_fit(name, placement, weights, logits, len(gpus)))


def _does_not_fit(name: str, placement: Placement, weights: int, logits: int, n_gpus: int) -> str:
    caps = [placement.max_memory[i] / GB for i in range(n_gpus)]
    cpu = placement.max_memory.get("cpu", 0) / GB
    room = sum(caps) - logits / GB + cpu
    return (
        f"{name}: {weights / GB:.1f} GB of {placement.dtype} weights do not fit the declared devices: "
        f"{n_gpus} GPU(s) taking at most {', '.join(f'{c:.1f}' for c in caps)} GB of weights each "
        f"(90% of the card, or max_memory_per_gpu_gb), less {logits / GB:.1f} GB of float32 logits of one batch "
        f"of {placement.batch_tokens} tokens on the output layer's GPU, plus {cpu:.1f} GB of host RAM "
        f"(cpu_offload_gb): {room:.1f} GB in all, "
        + (
            f"short by {weights / GB - room:.1f} GB. "
            if room < weights / GB
            else "enough in sum, not in accelerate's layout (whole layers; room kept for the largest on each GPU). "
        )
        + "Ask for more GPUs (config cluster.gpu_mem_gb: docs/cluster.md) "
        "or set cpu_offload_gb in the model's entry. Nothing was loaded."
    )


def planned(placement: Placement, model_config, name: str = "model") -> Placement:
    """`placement` with an "auto" device map replaced by its plan (one GPU only: the whole model there)."""
    if placement.device_map != "auto":
        return placement
    device_map = plan_device_map(model_config, placement, name)
    devices = set(device_map.values())
    if len(devices) == 1 and isinstance(next(iter(devices)), int):
        return replace(placement, device=f"cuda:{next(iter(devices))}", device_map=None)
    return replace(placement, device_map=device_map)


def resolve_device(device: str) -> str:
    """'cpu' | 'cuda' | 'auto' (cuda when available, else cpu) -> a torch device string."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        from benchval.models.placement import ModelLoadError

        raise ModelLoadError(f"device {device!r} requested but CUDA is not available here")
    if device != "cpu" and not device.startswith("cuda"):
        raise ValueError(f"device {device!r} is not one of cpu, cuda, auto")
    return device


def is_dispatched(model) -> bool:
    """Whether accelerate spread `model` over several devices (or offloaded part of it)."""
    return len(set((getattr(model, "hf_device_map", None) or {}).values())) > 1


def keep_in_place(model) -> None:
    """Exempt :data:`KEEP_IN_PLACE` arguments from the dispatched model's move to its first device."""
    hook = getattr(model, "_hf_hook", None)
    if hook is None or not hasattr(hook, "skip_keys"):
        return
    current = hook.skip_keys
    current = [] if current is None else [current] if isinstance(current, str) else list(current)
    hook.skip_keys = current + [key for key in KEEP_IN_PLACE if key not in current]


def place(model, device: str | torch.device, dtype: torch.dtype | None):
    """`model` on `device` in `dtype` (None: as it is), in eval mode. A dispatched model stays where
    accelerate put it: it is checked to hold `dtype` already."""
    if is_dispatched(model):
        if dtype is not None and model.dtype != dtype:
            raise ValueError(f"a model spread over devices is in {model.dtype}; load it in {dtype} instead")
        return model.eval()
    moved = model.to(device=device, dtype=dtype) if dtype is not None else model.to(device)
    return moved.eval()


def input_device(model) -> torch.device:
    """The device input ids go to: the input embeddings' (their execution device when offloaded)."""
    embeddings = model.get_input_embeddings()
    execution = getattr(getattr(embeddings, "_hf_hook", None), "execution_device", None)
    if execution is not None:
        return torch.device(execution)
    return embeddings.weight.device
