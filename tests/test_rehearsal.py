"""The rehearsal of the paper's study on tiny random-weight models (benchval.testing.rehearsal):
config/rehearsal.yaml in sync with config/paper.yaml, and a reduced rehearsal run end to end."""

from __future__ import annotations

import copy

import pytest
import yaml
from snakemake.utils import update_config, validate

from benchval.plumbing.config import catalogue_files
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.rehearsal import NOTICE, build_models, paper_config, rehearsal_config
from benchval.testing.snakemake_run import finished_rules, run_snakemake, snakemake_command

REHEARSAL = REPO_ROOT / "config" / "rehearsal.yaml"


def test_rehearsal_config_is_the_paper_study_on_tiny_models():
    committed = yaml.safe_load(REHEARSAL.read_text())
    assert committed == rehearsal_config(), (
        "config/rehearsal.yaml is stale: python -m benchval.testing.rehearsal write-config"
    )
    assert REHEARSAL.read_text().startswith("# " + NOTICE)
    paper = paper_config()
    study = committed["studies"]["default"]
    assert study["models"] == paper["studies"]["default"]["models"] and len(study["models"]) == 23
    assert study["tasks"] == paper["studies"]["default"]["tasks"] and len(study["tasks"]) == 19
    for name, entry in committed["models"].items():
        assert (entry["family"], entry["size_b"]) == (paper["models"][name]["family"], paper["models"][name]["size_b"])
        assert entry["source"] == {"type": "local", "path": f"models/{name}"}
    assert committed["scoring"]["jobs"] == "per_model" and study["commonwhy_criterion"] is False
    merged = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    for catalogue in catalogue_files(REPO_ROOT / "config" / "catalogue"):
        update_config(merged, yaml.safe_load(catalogue.read_text()))
    update_config(merged, copy.deepcopy(committed))
    validate(merged, str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml"))


@pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
def test_reduced_rehearsal_runs_end_to_end(tmp_path):
    """Two families (GPT-NeoX, whose tokenizer adds no BOS; Gemma 2, whose does), one calibrated task
    (with priors), two items: prepared, scored one job per model, evaluated, tabulated. The full
    rehearsal (23 models, 19 tasks) is run by hand (docs/cluster.md)."""
    models, tasks = ["pythia-1b", "gemma-2-2b-it"], ["cei"]
    config = rehearsal_config(n_items=2, models=models, tasks=tasks)
    build_models(tmp_path, config)
    assert (tmp_path / "README-RANDOM-WEIGHTS.txt").read_text().startswith("REHEARSAL WITH RANDOM WEIGHTS")
    path = tmp_path / "rehearsal.yaml"
    path.write_text(yaml.safe_dump(config))
    command = snakemake_command(tmp_path, REPO_ROOT / "config" / "config.yaml", path, cores=2)
    result, _ = run_snakemake([*command, "results/studies/default/score_table.csv"], timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    ran = finished_rules(output)
    assert sorted(r for r in ran if r.startswith("score_model_")) == [
        "score_model_gemma_2_2b_it",
        "score_model_pythia_1b",
    ]
    # calibration and evaluation follow the scoring layout: one job per model too
    for prefix in ("calibrate_model_", "evaluate_model_"):
        assert sorted(r for r in ran if r.startswith(prefix)) == [prefix + "gemma_2_2b_it", prefix + "pythia_1b"]
    table = (tmp_path / "results/studies/default/score_table.csv").read_text()
    assert all(m in table for m in models) and all(t in table for t in tasks)
