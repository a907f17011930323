"""Raw files are inputs of prepare_task by content (workflow/rules/tasks.smk,
tasks.smk's _task_raw_files): a mirror copied again with the same bytes and new modification times
plans nothing; new bytes with their new declared sha256 replan the task. (Before issue 32 a re-copied mirror
replanned every task through Snakemake's mtime trigger:
"Updated input files: ../shared/data/raw/piqa_rup/PIQA_RUP.csv".)"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import job_counts

# more than 1 MB: Snakemake compares the checksum of a smaller input whose mtime is newer (--max-checksum-file-size),
# so only a larger file shows the mtime trigger (the mirror's PIQA_RUP.csv is 1.9 MB)
N_ROWS = 12_000
ROWS = [
    {"goal": f"How do I do thing number {i} of the list?", "sol1": f"the first way {i}", "sol2": f"the other way {i}"}
    for i in range(N_ROWS)
]
TARGET = "results/tasks/toy.parquet"


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _config(workdir, mirror, catalogue):
    files = {
        key: {
            "path": f"toy_piqa/{name}",
            "url": f"https://example.invalid/{name}",
            "sha256": _sha(mirror / "toy_piqa" / name),
        }
        for key, name in (("data", "valid.jsonl"), ("labels", "valid-labels.lst"))
    }
    config = {
        "mirror": str(mirror),
        "seed": 5,
        "sample": {"n_items": 4},
        "datasets": {"toy_piqa": {"files": files}},
        "tasks": {"toy": dict(catalogue["tasks"]["piqa"], dataset="toy_piqa", adapter="piqa")},
    }
    (workdir / "config.yaml").write_text(yaml.safe_dump(config))


def _snakemake(workdir, *args):
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    command = [sys.executable, "-m", "snakemake", "--cores", "1", *args, TARGET]
    result = subprocess.run(command, cwd=workdir, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout + result.stderr


def _copy_again(folder):
    """The folder's files replaced by copies with the same bytes and a later modification time."""
    later = time.time() + 60
    for path in folder.iterdir():
        data = path.read_bytes()
        path.unlink()
        path.write_bytes(data)
        os.utime(path, (later, later))


def test_a_recopied_mirror_plans_nothing_and_new_bytes_replan_the_task(tmp_path, catalogue):
    mirror = tmp_path / "mirror"
    (mirror / "toy_piqa").mkdir(parents=True)
    (mirror / "toy_piqa/valid.jsonl").write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    (mirror / "toy_piqa/valid-labels.lst").write_text("".join(f"{i % 2}\n" for i in range(N_ROWS)))
    assert (mirror / "toy_piqa/valid.jsonl").stat().st_size > 1_000_000
    workdir = tmp_path / "run"
    workdir.mkdir()
    _config(workdir, mirror, catalogue)
    (workdir / "Snakefile").write_text(
        f'configfile: "config.yaml"\ninclude: "{REPO_ROOT / "workflow" / "rules" / "tasks.smk"}"\n'
    )
    _snakemake(workdir)
    assert job_counts(_snakemake(workdir, "-n")) == {}

    _copy_again(mirror / "toy_piqa")  # the same bytes, new mtimes
    recopied = _snakemake(workdir, "-n")
    print(recopied[-2000:])
    assert job_counts(recopied) == {}, "a re-copied mirror replanned the task"

    # new bytes: the catalogue declares the new sha256 (else prepare_task rejects the file)
    rows = ROWS[:-1] + [{"goal": "How do I do a new thing?", "sol1": "a new way", "sol2": "another"}]
    (mirror / "toy_piqa/valid.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    _config(workdir, mirror, catalogue)
    changed = _snakemake(workdir, "-n")
    print(changed[-2000:])
    assert job_counts(changed) == {"prepare_task": 1}
    shutil.rmtree(workdir / ".snakemake", ignore_errors=True)
