"""Every task a setting names must exist, and a YAML key given twice fails naming file and line."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from benchval.plumbing.config_error import ConfigError
from benchval.plumbing.config import check_references
from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.strict_yaml import DuplicateKeyError, check_no_duplicate_keys, load_yaml

SCHEMA = str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml")


def test_a_control_composite_naming_an_unknown_task_is_an_error(default_config):
    config = copy.deepcopy(default_config)
    config["analysis"]["control_composite"]["tasks"] = ["mmlu_redux", "mmlu_reduxx"]
    with pytest.raises(
        ConfigError, match=r"analysis\.control_composite\.tasks: unknown task 'mmlu_reduxx'.*mmlu_redux"
    ):
        check_references(config)


def test_a_control_composite_may_name_an_imported_studys_task(default_config):
    config = copy.deepcopy(default_config)
    config["analysis"]["control_composite"]["tasks"] = ["mmlu_redux", "mmlu"]  # mmlu: obsscaling's
    check_references(config)


def test_an_imported_studys_pair_must_be_one_of_its_tasks(default_config):
    config = copy.deepcopy(default_config)
    config["studies"]["obsscaling"]["tasks"]["winogrande"]["pairs_with"] = "xwinograds"
    with pytest.raises(ConfigError, match=r"studies\.obsscaling\.tasks\.winogrande\.pairs_with: unknown task"):
        check_references(config)


def test_a_key_given_twice_names_file_and_both_lines(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text("seed: 1\nsample:\n  n_items: 8\n  per_task: {}\n  n_items: 9\n")
    with pytest.raises(DuplicateKeyError, match=rf"{path}:5: key 'n_items' given twice \(first at line 3\)"):
        load_yaml(path)
    with pytest.raises(DuplicateKeyError):
        check_no_duplicate_keys([path])


def test_the_shipped_config_files_have_no_duplicate_keys():
    check_no_duplicate_keys([REPO_ROOT / "config/config.yaml", *sorted((REPO_ROOT / "config").rglob("*.yaml"))])


def test_the_workflow_refuses_a_configfile_with_a_duplicate_key(tmp_path):
    configfile = tmp_path / "extra.yaml"
    configfile.write_text("seed: 1\nseed: 2\n")
    result = subprocess.run(
        [str(Path(sys.executable).parent / "snakemake"), "-n", "--cores", "1", "--quiet", "rules"]
        + ["--configfile", str(configfile)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0
    assert f"{configfile}:2: key 'seed' given twice (first at line 1)" in result.stdout + result.stderr
