"""The generator for a system name: an OpenAI-compatible endpoint client or a prepared local model."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.generation.endpoint import EndpointGenerator, EndpointSettings
from benchval.generation.hf import HFGenerator
from benchval.plumbing.folders import MODELS_DIR


def make_generator(
    system: str,
    settings: Mapping,
    models_config: Mapping,
    models_dir: str | Path = MODELS_DIR,
    batch_size: int | None = None,
):
    """`settings`: the stage's ``commonwhy_eval`` settings (stage_keys.GENERATOR_KEYS); `models_config`: the
    model entries of the systems the stage loads."""
    if system in settings["endpoints"]:
        entry = {k: v for k, v in settings["endpoints"][system].items() if k != "answers"}
        return EndpointGenerator(EndpointSettings(**entry), name=system)
    if system not in models_config:
        raise KeyError(f"system {system!r} is neither in commonwhy_eval.endpoints nor in models")
    spec = models_config[system]
    return HFGenerator.from_prepared(
        Path(models_dir) / system,
        name=system,
        device=spec.get("device", "cpu"),
        dtype=spec.get("dtype", "float32"),
        use_chat_template=settings["generation"]["use_chat_template"],
        batch_size=batch_size or settings["generation"]["batch_size"],
    )
