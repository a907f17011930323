"""Functions of workflow/rules/models.smk."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path


def local_model_files(models: Mapping) -> Callable:
    """The input function of rule prepare_model: for a `type: local` source of ``models`` (config["models"]),
    the folder's config and weights, so changes rerun the rule; nothing for another source."""

    def files(wildcards) -> list[Path]:
        source = models[wildcards.model]["source"]
        if source["type"] != "local":
            return []
        folder = Path(source["path"])
        weights = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("*.bin"))
        return [folder / "config.json", *weights]

    return files
