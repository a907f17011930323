"""Raw files are checked against their declared sha256 where a rule reads them (benchval.plumbing.raw_file_checks),
on copies of the mirror in tmp_path: never the shared mirror itself."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from benchval.plumbing.config import section_defaults
from benchval.plumbing.raw_files import ChecksumMismatch, sha256_of
from benchval.plumbing.raw_file_checks import UndeclaredRawFile, verify_raw_files
from benchval.plumbing.folders import REPO_ROOT

OBSSCALING = "obsscaling/base_llm_benchmark_eval.csv"


@pytest.fixture
def mirror_copy(mirror, tmp_path):
    """A copy of the mirror's obsscaling folder (with its SHA256SUMS) and of CommonWhy's Head.json."""
    root = tmp_path / "raw"
    shutil.copytree(mirror / "obsscaling", root / "obsscaling")
    (root / "commonwhy").mkdir()
    shutil.copy(mirror / "commonwhy/Head.json", root / "commonwhy/Head.json")
    return root


@pytest.fixture
def datasets():
    return yaml.safe_load((REPO_ROOT / "config/catalogue/raw_sources.yaml").read_text())["datasets"]


def _edit_one_value(path: Path) -> None:
    """Change one digit of the first data row, keeping the size (the worst case for a size check)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    row = lines[1]
    index = next(i for i, c in enumerate(row) if c.isdigit() and i > row.find(","))
    lines[1] = row[:index] + ("1" if row[index] != "1" else "2") + row[index + 1 :]
    path.write_text("\n".join(lines), encoding="utf-8")


def test_an_edited_score_table_fails_against_its_folders_sha256sums(mirror_copy, datasets, tmp_path):
    table = mirror_copy / "obsscaling/instruct_llm_agent_eval.csv"  # not in the catalogue
    assert verify_raw_files([table], mirror_copy, datasets, tmp_path / "stamps")["hashed"] == 1
    _edit_one_value(table)
    with pytest.raises(ChecksumMismatch, match=r"instruct_llm_agent_eval\.csv \(declared in .*obsscaling/SHA256SUMS\)"):
        verify_raw_files([table], mirror_copy, datasets, tmp_path / "stamps")


def test_an_edited_catalogue_file_fails_naming_its_catalogue_entry(mirror_copy, datasets, tmp_path):
    head = mirror_copy / "commonwhy/Head.json"
    head.write_bytes(head.read_bytes().replace(b"?", b"!", 1))
    with pytest.raises(
        ChecksumMismatch, match=r"Head\.json \(declared in catalogue datasets\.commonwhy\.files\.head\)"
    ):
        verify_raw_files([head], mirror_copy, datasets, tmp_path / "stamps")


def test_a_raw_file_declared_nowhere_is_an_error(mirror_copy, datasets, tmp_path):
    extra = mirror_copy / "obsscaling/extra.csv"
    extra.write_text("Model,score\nm1,0.5\n")
    with pytest.raises(UndeclaredRawFile, match=r"extra\.csv: raw file with no declared sha256"):
        verify_raw_files([extra], mirror_copy, datasets, tmp_path / "stamps")


def test_a_folder_is_checked_file_by_file(mirror_copy, datasets, tmp_path):
    _edit_one_value(mirror_copy / "obsscaling/instruct_llm_agent_eval.csv")
    with pytest.raises(ChecksumMismatch, match="instruct_llm_agent_eval.csv"):
        verify_raw_files([mirror_copy / "obsscaling"], mirror_copy, datasets, tmp_path / "stamps")


def test_files_outside_the_raw_root_are_not_raw_files(mirror_copy, datasets, tmp_path):
    own = tmp_path / "my_scores.csv"
    own.write_text("model,score\n")
    assert verify_raw_files([own], mirror_copy, datasets, tmp_path / "stamps")["not_raw"] == 1


def test_a_rerun_does_not_hash_again_until_the_file_changes(mirror_copy, datasets, tmp_path, monkeypatch):
    table, stamps = mirror_copy / OBSSCALING, tmp_path / "stamps"
    verify_raw_files([table], mirror_copy, datasets, stamps)
    hashed = []
    monkeypatch.setattr(
        "benchval.plumbing.raw_file_checks.sha256_of", lambda path: hashed.append(path) or sha256_of(path)
    )
    assert verify_raw_files([table], mirror_copy, datasets, stamps) == {"hashed": 0, "stamp_matched": 1, "not_raw": 0}
    assert hashed == []
    _edit_one_value(table)  # same size, new mtime
    with pytest.raises(ChecksumMismatch):
        verify_raw_files([table], mirror_copy, datasets, stamps)
    assert hashed == [table]


def test_an_edit_that_keeps_size_and_mtime_is_hashed_again(mirror_copy, datasets, tmp_path):
    """Issue 42: the stamp held size and mtime only, so this edit passed and its value reached the score table."""
    table, stamps = mirror_copy / OBSSCALING, tmp_path / "stamps"
    assert verify_raw_files([table], mirror_copy, datasets, stamps)["hashed"] == 1
    before = table.stat()
    _edit_one_value(table)
    os.utime(table, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same size and the same mtime
    after = table.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    with pytest.raises(ChecksumMismatch, match="base_llm_benchmark_eval.csv"):
        verify_raw_files([table], mirror_copy, datasets, stamps)


RUN_IMPORT_SCRIPT = """
import json, runpy, sys
from types import SimpleNamespace

job = json.loads(open(sys.argv[1]).read())
snakemake = SimpleNamespace(**{**job, "output": SimpleNamespace(**job["output"])})
runpy.run_path(sys.argv[2], init_globals={"snakemake": snakemake})
"""


def test_the_import_rule_stops_on_an_edited_score_table(mirror_copy, tmp_path):
    """The rule's own script, as Snakemake runs it (a process of its own, started with start_job): an
    edited ObsScaling value never reaches the table."""
    _edit_one_value(mirror_copy / OBSSCALING)
    config = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    catalogue = yaml.safe_load((REPO_ROOT / "config/catalogue/raw_sources.yaml").read_text())
    job = {
        "input": [str(mirror_copy / OBSSCALING)],
        "output": {"table": str(tmp_path / "score_table.csv"), "tasks": str(tmp_path / "tasks.csv")},
        "log": [str(tmp_path / "import.log")],
        "wildcards": {"study": "obsscaling"},
        "params": {
            "study": config["studies"]["obsscaling"],
            "mirror": str(mirror_copy),
            "raw_files": {"raw_root": str(mirror_copy), "datasets": catalogue["datasets"]},
        },
        "threads": 1,
        # a job's config always holds `local` with its schema defaults (benchval.plumbing.job.start_job reads it)
        "config": {"local": section_defaults("local", config.get("local"))},
    }
    (tmp_path / "job.json").write_text(json.dumps(job))
    (tmp_path / "run.py").write_text(RUN_IMPORT_SCRIPT)
    script = REPO_ROOT / "workflow/scripts/import_score_table.py"
    done = subprocess.run(
        [sys.executable, "run.py", "job.json", str(script)], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 1
    log = (tmp_path / "import.log").read_text()
    assert re.search(r"ChecksumMismatch: .*base_llm_benchmark_eval\.csv", log), log[-2000:]
    assert not (tmp_path / "score_table.csv").exists()
