"""benchval.testing.prepared_models: a cached model is reused only when it is the configured one."""

from __future__ import annotations

import json

import pytest

from benchval.testing import prepared_models
from benchval.testing.prepared_models import configured_sha256, is_prepared

NAME = "smollm2-135m"


@pytest.fixture
def models(tmp_path, monkeypatch):
    monkeypatch.setattr(prepared_models, "MODELS", tmp_path)
    return tmp_path


def write_model(models, sha256: str, weights=("model.safetensors",), written=("model.safetensors",)):
    folder = models / NAME
    folder.mkdir()
    manifest = {"gguf_sha256": sha256, "weights_files": list(weights)}
    (folder / "benchval-model.json").write_text(json.dumps(manifest))
    for name in written:
        (folder / name).write_bytes(b"weights")


def test_the_configured_model_is_reused(models):
    write_model(models, configured_sha256(NAME))
    assert is_prepared(NAME)


@pytest.mark.parametrize(
    "sha256, written",
    [("0" * 64, ("model.safetensors",)), (None, ())],  # another GGUF; the weights file missing
)
def test_another_model_or_missing_weights_is_prepared_again(models, sha256, written):
    write_model(models, sha256 or configured_sha256(NAME), written=written)
    assert not is_prepared(NAME)


def test_no_folder_or_a_broken_manifest_is_not_prepared(models):
    assert not is_prepared(NAME)
    (models / NAME).mkdir()
    (models / NAME / "benchval-model.json").write_text("{not json")
    assert not is_prepared(NAME)


def test_a_name_outside_the_config_is_named():
    with pytest.raises(KeyError, match=r"'gpt-5' is not a model of config/config.yaml \(there: smollm2-135m"):
        configured_sha256("gpt-5")
