"""The files of a `type: local` model whose change reprepares it (rule prepare_model's input)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any


def local_model_files(source: Mapping[str, Any]) -> list[Path]:
    """For a `type: local` model ``source`` (a `models:` entry's `source`), the folder's config and weights
    (its safetensors, else its .bin files), so that changes rerun the preparation; nothing for another source."""
    if source["type"] != "local":
        return []
    folder = Path(source["path"])
    weights = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("*.bin"))
    return [folder / "config.json", *weights]
