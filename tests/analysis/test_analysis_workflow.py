"""The Snakemake rules of workflow/rules/analysis.smk: import a CSV study, then analyse it."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from benchval.plumbing.raw_files import sha256_of
from benchval.plumbing.folders import REPO_ROOT

SNAKEFILE = """
configfile: "config.yaml"
include: "{rules}"
include: "{robustness}"
rule all:
    input: LAYOUT.study_figure_files("toy"), LAYOUT.study_table_files("toy"), LAYOUT.published_tables()
"""


def test_import_and_analyse_rules(tmp_path):
    snakemake = Path(sys.executable).with_name("snakemake")
    assert snakemake.exists(), f"snakemake (a pinned dependency) is not installed beside {sys.executable}"
    rng = np.random.default_rng(0)
    n = 12
    ability = rng.normal(size=n)
    raw = pd.DataFrame(
        {"name": [f"m{i}" for i in range(n)], "fam": [f"f{i % 4}" for i in range(n)], "params": rng.uniform(1, 70, n)}
    )
    for column in ("A", "B", "C", "D"):
        raw[column] = 1 / (1 + np.exp(-(ability + rng.normal(size=n))))
    (tmp_path / "mirror").mkdir()
    raw.to_csv(tmp_path / "mirror/toy.csv", index=False)
    # a mirror declares its files' checksums (benchval.plumbing.raw_file_checks checks them where the rule reads them)
    (tmp_path / "mirror/SHA256SUMS").write_text(f"{sha256_of(tmp_path / 'mirror/toy.csv')}  toy.csv\n")
    config = {
        "mirror": str(tmp_path / "mirror"),
        "seed": 3,
        "studies": {
            "toy": {
                "source": "csv",
                "path": "{mirror}/toy.csv",
                "columns": {"model": "name", "family": "fam", "size_b": "params"},
                "tasks": {
                    "a": {"column": "A", "role": "cs_original", "axes": ["event"], "n_items": 500},
                    "b": {"column": "B", "role": "cs_reworked", "pairs_with": "a"},
                    "c": {"column": "C", "role": "control"},
                    "d": {"column": "D", "role": "downstream", "axes": ["event"], "n_items": 40},
                },
            }
        },
        "analysis": {"n_bootstrap": 100, "figures": {"formats": ["png"], "dpi": 50}},
        "robustness": {"power": {"n_sim": 50, "n_boot": 50}},
    }
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    rules = REPO_ROOT / "workflow/rules"
    snakefile = SNAKEFILE.replace("{rules}", str(rules / "analysis.smk"))
    (tmp_path / "Snakefile").write_text(snakefile.replace("{robustness}", str(rules / "robustness.smk")))
    result = subprocess.run(
        [str(snakemake), "--cores", "2", "--quiet", "all"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    tables = tmp_path / "results/studies/toy/tables"
    cs_ds = pd.read_csv(tables / "correlations_cs_downstream.csv")
    assert set(cs_ds.benchmark) == {"a", "b", "c"} and cs_ds.rho.notna().all()
    # reliability from the declared item counts (a, d); b and c declare none: their ceiling is missing
    ceilings = cs_ds.set_index("benchmark")["ceiling"]
    assert 0 < ceilings["a"] <= 1 and ceilings[["b", "c"]].isna().all()
    reliability = pd.read_csv(tables / "task_reliability.csv").set_index("task")
    assert reliability.loc["b", "variance_source"] == "none" and "n_items" in reliability.loc["b", "note"]
    # every declared study gets its power table and specification-robustness table and figure
    power = pd.read_csv(tables / "power.csv")
    assert set(power["kind"]) == {"rho", "delta_rho", "lofo_gain"} and power["smallest_effect"].notna().any()
    robustness = pd.read_csv(tables / "specification_robustness.csv")
    assert {"cs_downstream_spearman", "partial_spearman", "lofo_gain"} <= set(robustness["kind"])
    assert (tmp_path / "results/studies/toy/figures/specification_curve.png").is_file()
    assert (tmp_path / "results/studies/toy/figures/fig4_axis_tests.png").is_file()
    assert "toy.csv: task d" in (tmp_path / "logs/import_score_table/toy.log").read_text()
