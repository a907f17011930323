"""Start-up checks on the merged configuration (benchval.plumbing.config, called by workflow/rules/common.smk).

Each case of issue 15 "Config": the check by itself, and for the command-line cases the real
workflow's start-up through `snakemake -n`.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import validate

from snakemake.cli import parse_config

from benchval.plumbing.config_error import ConfigError
from benchval.plumbing.config import check_command_line, check_references, check_sections_are_mappings
from benchval.plumbing.folders import resolve_mirror
from benchval.plumbing.folders import REPO_ROOT

SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
SCHEMA = str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml")


@pytest.fixture()
def config(default_config) -> dict:
    return copy.deepcopy(default_config)


def test_the_default_config_passes_every_check(config):
    check_sections_are_mappings(config)
    check_references(config)


def test_sample_per_task_keys_must_name_catalogue_tasks(config):
    config["sample"]["per_task"] = {"hellaswag": 8, "hellaswga": 5}
    with pytest.raises(ConfigError, match=r"sample\.per_task\.hellaswga: unknown task.*did you mean 'hellaswag'"):
        check_references(config)


@pytest.mark.parametrize("seed, valid", [(-1, False), (0, True), (2**32 - 1, True), (2**32, False)])
def test_the_schema_sets_the_seed_range(config, seed, valid):
    config["seed"] = seed
    if valid:
        validate(config, SCHEMA)
    else:
        with pytest.raises(Exception, match="seed"):
            validate(config, SCHEMA)


def test_analysis_seed_has_the_same_range(config):
    config["analysis"]["seed"] = -5
    with pytest.raises(Exception, match="seed"):
        validate(config, SCHEMA)


def test_an_unknown_task_metric_is_caught_at_start_up(config):
    task = sorted(config["tasks"])[0]
    config["tasks"][task]["metrics"] = ["accuracy", "acuracy"]
    with pytest.raises(Exception, match=rf"(?s)'acuracy' is not one of.*\['tasks'\]\['{task}'\]\['metrics'\]"):
        validate(config, SCHEMA)


def test_the_task_metrics_enum_is_what_the_evaluation_computes():
    from benchval.evaluation.metrics import METRICS

    schema = yaml.safe_load((REPO_ROOT / "workflow" / "schemas" / "tasks.schema.yaml").read_text())
    assert sorted(schema["$defs"]["task"]["properties"]["metrics"]["items"]["enum"]) == sorted(METRICS)


def test_an_unknown_analysis_metric_is_caught_at_start_up(config):
    config["analysis"]["metrics"] = ["accuracy", "macro-f1"]
    with pytest.raises(ConfigError, match=r"analysis\.metrics: unknown metric 'macro-f1'.*macro_f1"):
        check_references(config)


@pytest.mark.parametrize("key", ["models", "tasks"])
def test_a_duplicate_in_a_study_is_caught_at_start_up(config, key):
    names = config["studies"]["default"][key]
    names.append(names[0])
    with pytest.raises(ConfigError, match=rf"studies\.default\.{key}: {names[0]!r} is listed 2 times"):
        check_references(config)


def test_a_mapping_on_the_command_line_says_to_use_a_configfile():
    overrides = parse_config(["sample={n_items: 8}"])  # Snakemake's own parsing: {'sample': {'n_items': '8'}}
    with pytest.raises(ConfigError, match=r"sample: a nested mapping given with --config.*--configfile"):
        check_command_line(overrides)
    with pytest.raises(ConfigError, match=r"mirror: --config mirror=null gives the text 'null'.*--configfile"):
        check_command_line(parse_config(["mirror=null"]))
    check_command_line(parse_config(["seed=3", "mirror=../elsewhere"]))  # plain values pass


def test_a_mapping_given_as_a_string_says_to_use_a_configfile(config):
    config["sample"] = "{n_items: 8"  # not YAML: --config keeps it as text
    with pytest.raises(ConfigError, match=r"sample: expected a mapping, got a string.*--configfile"):
        check_sections_are_mappings(config)


def test_a_missing_mirror_folder_fails_naming_it(tmp_path):
    missing = tmp_path / "no-such-mirror"
    with pytest.raises(ConfigError, match=rf"mirror: folder {missing} does not exist.*mirror: null"):
        resolve_mirror(str(missing))
    assert resolve_mirror(None) is None
    assert resolve_mirror(str(tmp_path)) == tmp_path


def _dry_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [SNAKEMAKE, "-n", "--cores", "1", "--quiet", "rules", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_workflow_start_up_error_for_a_mapping_on_the_command_line():
    result = _dry_run("--config", "sample={n_items: 8}")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "sample: a nested mapping given with --config" in output and "--configfile" in output


def test_workflow_loads_and_plans_with_mirror_null(tmp_path):
    configfile = tmp_path / "download.yaml"
    configfile.write_text("mirror: null\n")
    result = _dry_run("--configfile", str(configfile))
    assert result.returncode == 0, result.stderr[-3000:]
    planned = result.stdout + result.stderr
    # every raw file comes from its download: the CommonWhy files, LitWD1K and the imported study's CSV
    assert "fetch_raw_file" in planned and "commonwhy_published" in planned and "import_score_table" in planned
