"""Rule prepare_model (workflow/rules/models.smk) run by Snakemake on a tiny local model."""

from __future__ import annotations

import subprocess
import sys

import yaml

from benchval.models import read_manifest
from benchval.models.lock import read_lock
from benchval.plumbing.folders import REPO_ROOT

RULES = REPO_ROOT / "workflow" / "rules" / "models.smk"


def run_snakemake(workdir, *args):
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "1", "--directory", str(workdir), *args],
        cwd=workdir,
        capture_output=True,
        text=True,
    )


def test_rule_prepares_a_local_model_and_reruns_on_config_change(tiny_model_dir, tmp_path):
    workdir = tmp_path / "wf"
    workdir.mkdir()
    (workdir / "Snakefile").write_text(f'configfile: "config.yaml"\ninclude: "{RULES}"\n')
    entry = {"family": "tiny", "size_b": 0.0001, "source": {"type": "local", "path": str(tiny_model_dir)}}
    (workdir / "config.yaml").write_text(
        yaml.safe_dump({"models": {"tiny": entry}, "model_lock": "locks/models.lock.yaml"})
    )
    target = "resources/models/tiny/benchval-model.json"

    result = run_snakemake(workdir, target)
    assert result.returncode == 0, result.stderr[-3000:]
    manifest = read_manifest(workdir / "resources" / "models" / "tiny")
    assert manifest["name"] == "tiny" and manifest["family"] == "tiny"
    log = (workdir / "logs" / "prepare_model" / "tiny.log").read_text()
    assert "prepared 'tiny'" in log
    # the rule records the model in the lock file named by config `model_lock` (benchval.models.lock)
    assert read_lock(workdir / "locks" / "models.lock.yaml")["tiny"]["weights_sha256"] == manifest["weights_sha256"]

    # Editing the model's config entry (a params value) makes the rule run again.
    entry["family"] = "tiny2"
    (workdir / "config.yaml").write_text(yaml.safe_dump({"models": {"tiny": entry}}))
    dry = run_snakemake(workdir, "-n", target)
    assert dry.returncode == 0 and "prepare_model" in dry.stdout, dry.stdout[-2000:]
