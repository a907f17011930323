"""A rule's raw files by content (benchval.jobs.rule_files.raw_content) and its job's check against them
(benchval.plumbing.raw_content_checks), on copies of the mirror in tmp_path: never the shared mirror itself."""

import os
import shutil

import pytest
import yaml

from benchval.jobs.rule_files import raw_content
from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.raw_content_checks import verify_raw_content
from benchval.plumbing.raw_files import ChecksumMismatch, sha256_of

HEAD = "commonwhy/Head.json"  # declared in the catalogue (datasets.commonwhy.files.head)
TABLE = "obsscaling/instruct_llm_agent_eval.csv"  # declared in its folder's SHA256SUMS only


@pytest.fixture
def raw(mirror, tmp_path, monkeypatch):
    """A copy of the mirror's obsscaling folder and of Head.json under tmp_path/raw; tmp_path the working directory."""
    root = tmp_path / "raw"
    shutil.copytree(mirror / "obsscaling", root / "obsscaling")
    (root / "commonwhy").mkdir()
    shutil.copy(mirror / HEAD, root / HEAD)
    monkeypatch.chdir(tmp_path)
    return root


@pytest.fixture
def datasets():
    return yaml.safe_load((REPO_ROOT / "config/catalogue/raw_sources.yaml").read_text())["datasets"]


def test_declared_files_have_their_declared_sha256_unhashed(raw, datasets, monkeypatch):
    """The catalogue's sha256 and the SHA256SUMS line, read without hashing the files (a dry run stays cheap)."""
    monkeypatch.setattr("benchval.plumbing.raw_files.sha256_of", lambda path: pytest.fail(f"hashed {path}"))
    content = raw_content([f"raw/{HEAD}", [f"raw/{TABLE}"]], raw, datasets)
    assert content[f"raw/{HEAD}"] == datasets["commonwhy"]["files"]["head"]["sha256"]
    sums = (raw / "obsscaling/SHA256SUMS").read_text().splitlines()
    assert f"{content[f'raw/{TABLE}']}  {TABLE.split('/')[1]}" in sums


def test_new_mtimes_change_nothing_and_a_users_new_bytes_do(raw, datasets, tmp_path):
    user = tmp_path / "mine.csv"
    user.write_text("model,score\na,1\n")
    before = raw_content(["raw/obsscaling", "mine.csv"], raw, datasets)
    for path in [*raw.rglob("*"), user]:
        os.utime(path, (1, 1))
    assert raw_content(["raw/obsscaling", "mine.csv"], raw, datasets) == before
    assert before["mine.csv"] == sha256_of(user)
    assert "raw/obsscaling/SHA256SUMS" not in before  # the declaration itself is not data
    user.write_text("model,score\na,2\n")
    assert raw_content(["raw/obsscaling", "mine.csv"], raw, datasets)["mine.csv"] != before["mine.csv"]


def test_the_job_stops_on_a_changed_byte_naming_the_file(raw, datasets, tmp_path):
    content = raw_content([f"raw/{HEAD}", f"raw/{TABLE}"], raw, datasets)
    assert verify_raw_content(content, tmp_path / "stamps") == {"hashed": 2, "stamp_matched": 0}
    assert verify_raw_content(content, tmp_path / "stamps") == {"hashed": 0, "stamp_matched": 2}
    head = raw / HEAD
    head.write_bytes(head.read_bytes().replace(b"?", b"!", 1))  # same size
    with pytest.raises(ChecksumMismatch, match=r"raw/commonwhy/Head\.json \(declared in the catalogue"):
        verify_raw_content(content, tmp_path / "stamps")


def test_a_missing_file_stops_the_job_naming_it(raw, datasets, tmp_path):
    content = raw_content(["gone.csv"], raw, datasets)
    assert content == {"gone.csv": "missing"}
    with pytest.raises(FileNotFoundError, match="gone.csv"):
        verify_raw_content(content, tmp_path / "stamps")
    assert verify_raw_content(None) == {"hashed": 0, "stamp_matched": 0}
