"""Per-model override of the scoring job layout (models.<name>.scoring_jobs over scoring.jobs),
checked with `snakemake -n` on a tiny config: which rule scores which (model, task)."""

from __future__ import annotations

import pytest
import yaml

from benchval.plumbing.folders import default_mirror
from benchval.testing.snakemake_run import job_counts, run_snakemake, snakemake_command
from benchval.testing.tiny import TINY_MODELS, TINY_TASKS, tiny_workflow_config

pytestmark = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")


def dry_run_jobs(workdir, config: dict) -> dict[str, int]:
    path = workdir / "layout.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    targets = [f"results/scores/{m}/{t}.parquet" for m in TINY_MODELS for t in TINY_TASKS]
    result, _ = run_snakemake([*snakemake_command(workdir, path, cores=1), "-n", *targets], timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    return {rule: n for rule, n in job_counts(output).items() if rule.startswith("score")}


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
