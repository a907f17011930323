"""The one model backend: load a model folder for scoring and generation.

A prepared folder (resources/models/{model}/, with benchval-model.json) loads from its manifest's
load target; a plain Hugging Face folder (tests, benchmarks) loads as it is. Device, dtype and the
device map of a model larger than one device come from a :class:`~benchval.models.placement.Placement`;
a device map left to plan ("auto": every `device: cuda` entry) is planned from the model's config on
the meta device before any weight is read, so a model the declared GPUs cannot hold fails first, with
the numbers (:class:`~benchval.models.placement.ModelDoesNotFit`).
"""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

from benchval.models.hub import hub_error
from benchval.models.manifest import manifest_path, read_manifest
from benchval.models.placement import (
    ModelLoadError,
    Placement,
    keep_in_place,
    place,
    planned,
    resolve_device,
    resolve_dtype,
)


def load_target(model_dir: Path, manifest: dict) -> tuple[str, dict]:
    """What to pass to from_pretrained (a folder or a Hub id) and the extra keyword arguments."""
    load_from = manifest["load_from"]
    if load_from["kind"] == "folder":
        folder = Path(load_from["path"])
        return str(folder if folder.is_absolute() else model_dir / folder), {}
    cached = load_from.get("path")
    if cached and Path(cached).is_dir():
        return cached, {}
    return load_from["id"], {"revision": load_from.get("revision")}


def load_model(model_dir: str | Path, placement: Placement | None = None):
    """(model, tokenizer) of a model folder, placed as `placement` says, in eval mode.

    A folder with benchval-model.json is a prepared model (loaded from its manifest's target, with
    clear errors for a missing Hub copy); any other folder is loaded as a Hugging Face folder.
    No placement: CPU, float32.
    """
    placement = placement or Placement()
    if manifest_path(model_dir).is_file():
        return load_prepared(model_dir, placement=placement)
    return _from_pretrained(str(model_dir), {}, placement)


def load_prepared(
    model_dir: str | Path,
    device: str = "cpu",
    dtype: str | torch.dtype = "float32",
    *,
    placement: Placement | None = None,
):
    """(model, tokenizer) of a prepared model folder (or its manifest file), in eval mode on `device`.

    `placement` (device, dtype, device map) replaces `device` and `dtype` when given. The
    manifest's own `dtype`/`device` (from the config) are what the scorer should pass.
    """
    placement = placement or Placement(device, dtype)
    model_dir = manifest_path(model_dir).parent
    manifest = read_manifest(model_dir)
    target, kwargs = load_target(model_dir, manifest)
    try:
        return _from_pretrained(target, kwargs, placement)
    except OSError as error:
        if manifest["load_from"]["kind"] == "hub":
            raise hub_error(manifest["name"], target, kwargs.get("revision"), error) from error
        message = f"model {manifest['name']!r}: cannot load {target}: {error}"
        raise ModelLoadError(message) from error


def _from_pretrained(target: str, kwargs: dict, placement: Placement):
    torch_dtype = resolve_dtype(placement.dtype)
    if placement.device_map == "auto":
        placement = planned(placement, AutoConfig.from_pretrained(target, **kwargs), name=str(target))
    device = resolve_device(placement.device)
    tokenizer = AutoTokenizer.from_pretrained(target, **kwargs)
    model = AutoModelForCausalLM.from_pretrained(
        target, dtype=torch_dtype, **kwargs, **placement.from_pretrained_kwargs()
    )
    keep_in_place(model)
    return place(model, device, torch_dtype), tokenizer
