"""The model lock file (benchval.models.lock): the first preparation records, later ones use and verify.

Tiny random-weight models (benchval.testing.tiny) as `local` sources, and as Hugging Face sources
served by a stand-in for huggingface_hub.snapshot_download (the Hub is not reachable here).
"""

from __future__ import annotations

import shutil

import pytest
from benchval.models import prepare_model
from benchval.models.lock import ModelLockError, read_lock
from benchval.testing.tiny import build_tiny_model

COMMIT_A = "a" * 40
COMMIT_B = "b" * 40


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny-models")
    return build_tiny_model(root / "seed0", seed=0, layers=1), build_tiny_model(root / "seed1", seed=1, layers=1)


def _local(path) -> dict:
    return {"family": "t", "size_b": 0.0001, "source": {"type": "local", "path": str(path)}}


def test_first_run_records_and_later_runs_verify(tiny_models, tmp_path):
    lock_path = tmp_path / "models.lock.yaml"
    first = prepare_model("tiny", _local(tiny_models[0]), tmp_path / "run1" / "tiny", lock_path=lock_path)
    assert first["model_lock"] == {"path": str(lock_path), "status": "recorded"}
    entry = read_lock(lock_path)["tiny"]
    assert entry["weights_sha256"] == first["weights_sha256"] and entry["resolved_commit"] is None
    assert entry["source"] == {"type": "local", "path": str(tiny_models[0])}
    again = prepare_model("tiny", _local(tiny_models[0]), tmp_path / "run2" / "tiny", lock_path=lock_path)
    assert again["model_lock"]["status"] == "verified" and again["weights_sha256"] == first["weights_sha256"]


def test_other_weights_behind_the_same_source_stop_the_rebuild(tiny_models, tmp_path):
    lock_path = tmp_path / "models.lock.yaml"
    folder = tmp_path / "my-model"
    shutil.copytree(tiny_models[0], folder)
    prepare_model("mine", _local(folder), tmp_path / "run1" / "mine", lock_path=lock_path)
    shutil.rmtree(folder)
    shutil.copytree(tiny_models[1], folder)  # the folder now holds other weights
    with pytest.raises(ModelLockError, match=r"model 'mine' prepared now has weights sha256 .*delete the entry 'mine'"):
        prepare_model("mine", _local(folder), tmp_path / "run2" / "mine", lock_path=lock_path)
    assert not (tmp_path / "run2" / "mine").exists()  # no prepared folder with unlocked weights


def test_a_config_that_names_another_source_is_an_error(tiny_models, tmp_path):
    lock_path = tmp_path / "models.lock.yaml"
    prepare_model("tiny", _local(tiny_models[0]), tmp_path / "run1" / "tiny", lock_path=lock_path)
    with pytest.raises(ModelLockError, match=r"locked to source .*config now names"):
        prepare_model("tiny", _local(tiny_models[1]), tmp_path / "run2" / "tiny", lock_path=lock_path)


@pytest.fixture()
def fake_hub(tiny_models, tmp_path, monkeypatch):
    """snapshot_download stand-in: 'main' resolves to COMMIT_A; each commit is a folder of weights."""
    import huggingface_hub

    hub = {"main": COMMIT_A, COMMIT_A: tiny_models[0], COMMIT_B: tiny_models[1]}
    calls = []

    def snapshot_download(repo_id, revision=None, allow_patterns=None):
        calls.append(revision)
        commit = hub["main"] if revision in (None, "main") else revision
        folder = tmp_path / "hub" / commit  # the folder name is the commit, as in the HF cache
        if not folder.exists():
            shutil.copytree(hub[commit], folder)
        return str(folder)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    return hub, calls


def _hf(revision=None) -> dict:
    return {
        "family": "t",
        "size_b": 0.0001,
        "source": {"type": "hf", "id": "org/tiny", "revision": revision},
        "sanity_check": False,
    }  # random weights


def test_hf_source_is_fetched_at_the_locked_commit(fake_hub, tmp_path):
    hub, calls = fake_hub
    lock_path = tmp_path / "models.lock.yaml"
    first = prepare_model("tiny-hf", _hf(), tmp_path / "run1" / "m", lock_path=lock_path)
    assert calls == [None] and read_lock(lock_path)["tiny-hf"]["resolved_commit"] == COMMIT_A
    hub["main"] = COMMIT_B  # a year later, main has moved on
    again = prepare_model("tiny-hf", _hf(), tmp_path / "run2" / "m", lock_path=lock_path)
    assert calls == [None, COMMIT_A]  # fetched at the locked commit, not at main
    assert again["weights_sha256"] == first["weights_sha256"] and again["model_lock"]["status"] == "verified"


def test_hf_weights_changed_at_the_locked_commit_are_refused(fake_hub, tiny_models, tmp_path):
    hub, _ = fake_hub
    lock_path = tmp_path / "models.lock.yaml"
    prepare_model("tiny-hf", _hf(), tmp_path / "run1" / "m", lock_path=lock_path)
    shutil.rmtree(tmp_path / "hub" / COMMIT_A)
    hub[COMMIT_A] = tiny_models[1]  # same commit name, other bytes (a corrupted or rewritten cache)
    with pytest.raises(ModelLockError, match=r"weights sha256 .*\(locked: "):
        prepare_model("tiny-hf", _hf(), tmp_path / "run2" / "m", lock_path=lock_path)


def test_hf_config_pinning_another_commit_than_the_lock_is_an_error(fake_hub, tmp_path):
    lock_path = tmp_path / "models.lock.yaml"
    prepare_model("tiny-hf", _hf(), tmp_path / "run1" / "m", lock_path=lock_path)
    with pytest.raises(ModelLockError, match=rf"locked to commit {COMMIT_A}, but the config pins revision {COMMIT_B}"):
        prepare_model("tiny-hf", _hf(COMMIT_B), tmp_path / "run2" / "m", lock_path=lock_path)
