"""Raw-data access: mirror before download, sha256 checks, and errors that name every place."""

from __future__ import annotations

import hashlib
import http.server
import io
import threading
import zipfile
from functools import partial
from pathlib import Path

import pytest

from benchval.plumbing import raw_files as data
from benchval.plumbing.raw_files import ChecksumMismatch, DataFile, DataFileNotFound


def sha(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


@pytest.fixture
def server(tmp_path):
    """A local HTTP server over tmp_path/www, standing in for the upstream host."""
    root = tmp_path / "www"
    root.mkdir()
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_resolve_prefers_mirror_and_falls_back_to_download_dir(tmp_path):
    mirror = tmp_path / "mirror"
    (mirror / "set").mkdir(parents=True)
    (mirror / "set" / "a.txt").write_text("a")
    assert data.resolve("set/a.txt", mirror, tmp_path / "dl") == mirror / "set" / "a.txt"
    assert data.resolve("set/b.txt", mirror, tmp_path / "dl") == tmp_path / "dl" / "set" / "b.txt"
    assert data.resolve("set/a.txt", None, tmp_path / "dl") == tmp_path / "dl" / "set" / "a.txt"


def test_locate_verifies_checksum_and_names_file_and_hashes(tmp_path):
    mirror = tmp_path / "mirror"
    (mirror / "set").mkdir(parents=True)
    (mirror / "set" / "a.txt").write_bytes(b"real bytes")
    good = DataFile("set/a.txt", "https://example.org/a.txt", sha(b"real bytes"))
    assert data.locate(good, mirror, tmp_path / "dl") == mirror / "set" / "a.txt"
    bad = DataFile("set/a.txt", "https://example.org/a.txt", "0" * 64)
    with pytest.raises(ChecksumMismatch) as error:
        data.locate(bad, mirror, tmp_path / "dl")
    message = str(error.value)
    assert "set/a.txt" in message and "0" * 64 in message and sha(b"real bytes") in message


def test_missing_file_error_names_every_place_looked(tmp_path):
    declared = DataFile("set/none.txt", "pypi:some-wheel member x (converted)", "0" * 64)
    with pytest.raises(DataFileNotFound) as error:
        data.fetch(declared, tmp_path / "mirror", tmp_path / "dl")
    message = str(error.value)
    assert str(tmp_path / "mirror" / "set" / "none.txt") in message
    assert str(tmp_path / "dl" / "set" / "none.txt") in message
    assert "cannot be downloaded" in message and "pypi:some-wheel" in message


def test_fetch_downloads_when_mirror_lacks_file(tmp_path, server):
    root, base = server
    (root / "a.txt").write_bytes(b"upstream")
    declared = DataFile("set/a.txt", f"{base}/a.txt", sha(b"upstream"))
    path = data.fetch(declared, tmp_path / "empty-mirror", tmp_path / "dl")
    assert path == tmp_path / "dl" / "set" / "a.txt"
    assert path.read_bytes() == b"upstream"
    # a second call finds the cached copy without the server
    (root / "a.txt").unlink()
    assert data.fetch(declared, None, tmp_path / "dl") == path


def test_download_checksum_mismatch_leaves_nothing(tmp_path, server):
    root, base = server
    (root / "a.txt").write_bytes(b"tampered")
    declared = DataFile("set/a.txt", f"{base}/a.txt", sha(b"upstream"))
    with pytest.raises(ChecksumMismatch) as error:
        data.fetch_to(declared, tmp_path / "dl" / "set" / "a.txt")
    assert sha(b"upstream") in str(error.value) and sha(b"tampered") in str(error.value)
    assert not (tmp_path / "dl" / "set" / "a.txt").exists()


def test_download_zip_member(tmp_path, server):
    root, base = server
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("inner/dev.jsonl", b'{"x": 1}\n')
    (root / "set.zip").write_bytes(buffer.getvalue())
    declared = DataFile("set/dev.jsonl", f"{base}/set.zip", sha(b'{"x": 1}\n'), member="inner/dev.jsonl")
    assert data.fetch_to(declared, tmp_path / "out" / "dev.jsonl").read_bytes() == b'{"x": 1}\n'
    missing = DataFile("set/dev.jsonl", f"{base}/set.zip", "0" * 64, member="nope.jsonl")
    with pytest.raises(DataFileNotFound, match="nope.jsonl"):
        data.fetch_to(missing, tmp_path / "out2" / "dev.jsonl")


def test_unreachable_url_names_file_and_url(tmp_path):
    declared = DataFile("set/a.txt", "http://127.0.0.1:9/a.txt", "0" * 64)
    with pytest.raises(DataFileNotFound) as error:
        data.fetch_to(declared, tmp_path / "a.txt")
    assert "set/a.txt" in str(error.value) and "127.0.0.1:9" in str(error.value)


def test_catalogue_checksums_match_mirror_files(catalogue, mirror):
    """Every declared file is in the mirror with the declared sha256, which equals its SHA256SUMS line."""
    for name in catalogue["datasets"]:
        for key, declared in data.dataset_files(catalogue["datasets"], name).items():
            path = data.locate(declared, mirror, Path("/nonexistent"))
            sums = dict(
                reversed(line.split(None, 1)) for line in (path.parent / "SHA256SUMS").read_text().splitlines() if line
            )
            assert sums[path.name] == declared.sha256, f"{name}.{key}"


def test_find_declared(catalogue):
    found = data.find_declared(catalogue["datasets"], "piqa/valid.jsonl")
    assert found.url.startswith("https://raw.githubusercontent.com/ybisk/")
    with pytest.raises(KeyError, match="nope/x.csv"):
        data.find_declared(catalogue["datasets"], "nope/x.csv")
