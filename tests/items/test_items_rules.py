"""The item rules with and without an `items:` section: the default config plans its 12 jobs; a config
without the section (the tiny test workflow) reads the rule file and plans none."""

from __future__ import annotations

import subprocess
import sys

import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import job_counts


def dry_run(workdir, config: dict, *targets: str) -> subprocess.CompletedProcess:
    (workdir / "config.yaml").write_text(yaml.safe_dump(config))
    if not (workdir / "config").exists():  # atlas.smk reads config/atlas/ beside its Snakefile
        (workdir / "config").symlink_to(REPO_ROOT / "config")
    (workdir / "Snakefile").write_text(
        f'configfile: "config.yaml"\ninclude: "{REPO_ROOT}/workflow/rules/atlas.smk"\n'
        f'include: "{REPO_ROOT}/workflow/rules/items.smk"\n'
        "from benchval.items.item_files import item_outputs\n"
        "rule all:\n    input: item_outputs(config, LAYOUT.mirror)\n"
    )
    command = [sys.executable, "-m", "snakemake", "-n", "--cores", "1", *targets]
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=300)


def test_items_rules_with_and_without_the_section(tmp_path, mirror):
    config = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    config["mirror"] = str(mirror)
    with_items = dry_run(tmp_path, config)
    assert with_items.returncode == 0, with_items.stderr[-3000:]
    counts = job_counts(with_items.stdout)
    assert {k: v for k, v in counts.items() if k.startswith("items_")} == {
        "items_responses": 2,
        "items_paired": 2,
        "items_irt_recovery": 1,
        "items_irt_nlu_test_sets": 1,
        "items_irt_mmlu_pro_outputs": 1,
        "items_study": 2,
        "items_figures": 2,
        "items_report": 1,
    }
    assert counts["atlas_sources"] == 1  # the MMLU-Pro study reads the registry and the cells
    config.pop("items")
    without = dry_run(tmp_path, config)
    assert without.returncode == 0, without.stderr[-3000:]
    assert {k for k in job_counts(without.stdout) if k.startswith("items_")} == set()
