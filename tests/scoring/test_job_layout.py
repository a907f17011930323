"""Per-model override of the scoring job layout (models.<name>.scoring_jobs over scoring.jobs),
checked with `snakemake -n` on a tiny config: which rule scores which (model, task)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml

from benchval.paths import REPO_ROOT, default_mirror
from benchval.testing.tiny import TINY_MODELS, TINY_TASKS, tiny_workflow_config

pytestmark = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")


def dry_run_jobs(workdir, config: dict) -> dict[str, int]:
    path = workdir / "layout.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    targets = [f"results/scores/{m}/{t}.parquet" for m in TINY_MODELS for t in TINY_TASKS]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "--snakefile",
            str(REPO_ROOT / "Snakefile"),
            "--directory",
            str(workdir),
            "--configfile",
            str(path),
            "--cores",
            "1",
            "-n",
            *targets,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, HF_HUB_OFFLINE="1"),
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    table = (result.stdout + result.stderr).split("Job stats:", 1)[1].split("\n\n", 1)[0]
    return {rule: int(n) for rule, n in re.findall(r"^(\w+)\s+(\d+)$", table, re.MULTILINE) if rule.startswith("score")}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("layout")
    return workdir, yaml.safe_load(tiny_workflow_config(workdir, n_items=2, n_bootstrap=100).read_text())


def test_one_model_per_model_the_others_per_task(tiny):
    workdir, config = tiny
    config["scoring"]["jobs"] = "per_task"
    config["models"]["tiny-a2"]["scoring_jobs"] = "per_model"
    assert dry_run_jobs(workdir, config) == {"score": 2 * len(TINY_TASKS), "score_model_tiny_a2": 1}


def test_one_model_per_task_the_others_per_model(tiny):
    workdir, config = tiny
    config["scoring"]["jobs"] = "per_model"
    config["models"]["tiny-a1"]["scoring_jobs"] = "per_task"
    assert dry_run_jobs(workdir, config) == {
        "score": len(TINY_TASKS),
        "score_model_tiny_a2": 1,
        "score_model_tiny_b1": 1,
    }
