"""Where a model's layers go: one device, or an accelerate device map across the job's GPUs.

A model entry (config `models:`) says `device` and `dtype`; a model larger than one GPU is spread
over every GPU the job sees (SLURM sets CUDA_VISIBLE_DEVICES to the job's GPUs) with accelerate's
balanced device map, each GPU holding at most `max_memory_per_gpu_gb` of weights (absent:
accelerate's default, 90% of the GPU's free memory) and, with `cpu_offload_gb`, up to that much in
host RAM (moved to a GPU layer by layer at each forward). docs/cluster.md says how to set them.

Scoring (benchval.scoring) and generation (benchval.generation.hf) both load through
:func:`benchval.models.loader.load_model` with a :class:`Placement`, and feed their inputs to
:func:`input_device`; outputs are read on the logits' own device.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import torch

# Keyword arguments the dispatched model must not move to its first device: the fast engine's
# boolean `logits_to_keep` indexes the last layer's hidden states, on the last GPU (a CPU index
# tensor may index a tensor on any device; one on another GPU may not).
KEEP_IN_PLACE = ("logits_to_keep",)


@dataclass(frozen=True)
class Placement:
    """How to place a loaded model.

    device_map: None (the whole model on `device`), "auto"/"balanced"/"sequential", or an explicit
    {module name: device} (devices: a GPU index, "cpu", "disk"); max_memory: accelerate's
    {GPU index or "cpu": "70GB"}; offload_folder: where modules mapped to "disk" live.
    """

    device: str = "cpu"
    dtype: str = "float32"
    device_map: str | dict[str, Any] | None = None
    max_memory: dict[Any, str] | None = None
    offload_folder: str | None = None

    @classmethod
    def from_model_entry(cls, entry: Mapping[str, Any]) -> Placement:
        """The placement a `models:` entry asks for on this machine (see the module docstring)."""
        device = resolve_device(entry.get("device", "cpu"))
        dtype = entry.get("dtype", "float32")
        per_gpu, offload = entry.get("max_memory_per_gpu_gb"), entry.get("cpu_offload_gb")
        n_gpus = torch.cuda.device_count() if device.startswith("cuda") else 0
        if n_gpus == 0 or (n_gpus == 1 and per_gpu is None and offload is None):
            return cls(device, dtype)
        max_memory = None
        if per_gpu is not None or offload is not None:
            max_memory = {index: f"{per_gpu}GB" for index in range(n_gpus)} if per_gpu is not None else {}
            if offload is not None:
                max_memory["cpu"] = f"{offload}GB"
        return cls(device, dtype, device_map="auto", max_memory=max_memory or None)

    def from_pretrained_kwargs(self) -> dict[str, Any]:
        """The device-map arguments of transformers' from_pretrained (none for one device)."""
        if self.device_map is None:
            return {}
        extra = {"max_memory": self.max_memory, "offload_folder": self.offload_folder}
        return {"device_map": self.device_map, **{k: v for k, v in extra.items() if v is not None}}


def resolve_device(device: str) -> str:
    """'cpu' | 'cuda' | 'auto' (cuda when available, else cpu) -> a torch device string."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        from benchval.models.loader import ModelLoadError

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
