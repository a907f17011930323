import hashlib

import jsonschema
import numpy as np
import pandas as pd
import pytest
import yaml

from benchval.analysis.outputs import figure_paths, table_paths
from benchval.analysis.run import run_analysis
from benchval.analysis.settings import settings_from_config
from benchval.analysis.synthetic import write_synthetic_study
from benchval.plumbing.folders import REPO_ROOT

SMALL = {"n_bootstrap": 200, "seed": 11}
QUICK_FIGURES = {**SMALL, "figures": {"formats": ["png"], "dpi": 50}}


def digests(paths):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def test_whole_analysis_writes_every_output_and_is_bit_for_bit_reproducible(tmp_path, study_files):
    run_analysis(*study_files, SMALL, tmp_path / "one", study_name="synthetic")
    run_analysis(*study_files, SMALL, tmp_path / "two", study_name="synthetic", make_figures=False)
    for path in figure_paths(tmp_path / "one") + table_paths(tmp_path / "one"):
        assert path.is_file() and path.stat().st_size > 0, path
    assert digests(table_paths(tmp_path / "one")) == digests(table_paths(tmp_path / "two"))
    other = run_analysis(*study_files, {**SMALL, "seed": 12}, tmp_path / "three", make_figures=False)
    first = pd.read_csv(tmp_path / "one/tables/delta_rho.csv")
    assert not np.allclose(first.ci_low, other["delta_rho"].ci_low)  # the seed matters
    assert np.allclose(first.estimate, other["delta_rho"].estimate)  # point estimates do not


def test_tables_cover_both_metrics_and_fdr_is_attached(tmp_path, study_files):
    tables = run_analysis(*study_files, SMALL, tmp_path, make_figures=False)
    cs_ds = tables["correlations_cs_downstream"]
    assert set(cs_ds.metric) == {"accuracy", "macro_f1"}
    assert len(cs_ds[cs_ds.metric == "macro_f1"]) == 11 * 7  # TimeDial: accuracy only
    assert cs_ds.loc[cs_ds.role == "control", "fdr_family"].eq("control_downstream_spearman").all()
    assert len(tables["table4_rank_displacement"]) == 16
    fdr = tables["fdr"]
    assert fdr.groupby(["fdr_family", "metric"]).size().loc[("cs_downstream_spearman", "accuracy")] == 64


def test_tiny_study_reports_missing_never_crashes(tmp_path):
    """Three models in three families (like the default study): everything missing with a reason."""
    sizes = {"a": [0.135], "b": [0.27], "c": [0.5]}
    score_csv, tasks_csv = write_synthetic_study(tmp_path / "tiny", family_sizes=sizes)
    tables = run_analysis(score_csv, tasks_csv, QUICK_FIGURES, tmp_path / "tiny_out")
    for name in (
        "correlations_cs_cs",
        "correlations_cs_downstream",
        "partial_spearman",
        "delta_rho",
        "axis_tests",
        "lofo_scores",
        "revision_groups",
    ):
        table = tables[name]
        value = {
            "correlations_cs_cs": "rho",
            "correlations_cs_downstream": "rho",
            "partial_spearman": "rho_partial",
            "lofo_scores": "r2",
        }.get(name, "estimate")
        assert table[value].isna().all(), name
        assert table["note"].fillna("").str.len().gt(0).all(), name
    for path in figure_paths(tmp_path / "tiny_out", formats=("png",)):
        assert path.is_file()


def test_only_commonsense_tasks(tmp_path):
    """A study without downstream or control tasks (the default scored study's shape)."""
    from benchval.analysis.synthetic import PAPER_TASKS

    tasks = [t for t in PAPER_TASKS if t[1].startswith("cs_")]
    score_csv, tasks_csv = write_synthetic_study(tmp_path / "cs", tasks=tasks)
    tables = run_analysis(score_csv, tasks_csv, QUICK_FIGURES, tmp_path / "cs_out")
    assert all(p.is_file() for p in figure_paths(tmp_path / "cs_out", formats=("png",)))
    assert tables["correlations_cs_cs"]["rho"].notna().all()
    assert tables["revision_groups"]["estimate"].notna().any()
    assert tables["lofo_scores"].empty or tables["lofo_scores"]["r2"].isna().all()


def test_config_sections_validate_against_schemas():
    config = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    schemas = REPO_ROOT / "workflow/schemas"
    for section in ("analysis", "studies"):
        schema = yaml.safe_load((schemas / f"{section}.schema.yaml").read_text())
        jsonschema.validate(config[section], schema)
    settings_from_config(config["analysis"])
    analysis_schema = yaml.safe_load((schemas / "analysis.schema.yaml").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"n_bootstrap": 5000, "typo_key": 1}, analysis_schema)
    studies_schema = yaml.safe_load((schemas / "studies.schema.yaml").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {
                "x": {
                    "source": "csv",
                    "path": "p",
                    "columns": {"model": "m", "family": "f", "size_b": "s"},
                    "tasks": {"t": {"column": "c", "role": "downstream", "axis": ["event"]}},
                }
            },
            studies_schema,
        )


def test_unknown_analysis_key_fails_in_python_too():
    with pytest.raises(ValueError, match="unknown key"):
        settings_from_config({"n_boot": 5})


def test_score_table_without_rows_still_writes_every_output(tmp_path, synthetic_frames):
    scores, tasks = synthetic_frames
    scores.iloc[:0].to_csv(tmp_path / "s.csv", index=False)
    tasks.to_csv(tmp_path / "t.csv", index=False)
    tables = run_analysis(tmp_path / "s.csv", tmp_path / "t.csv", QUICK_FIGURES, tmp_path / "out")
    assert all(p.is_file() for p in table_paths(tmp_path / "out"))
    assert all(p.is_file() for p in figure_paths(tmp_path / "out", formats=("png",)))
    assert tables["study_summary"]["note"].str.contains("no 'accuracy' scores").all()
