"""Sensitivity variants (benchval.tasks.variants): one generated task per PIQA-RUP perturbation."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
import yaml

from benchval.plumbing.config_error import ConfigError
from benchval.plumbing.config import catalogue_files
from benchval.plumbing.folders import REPO_ROOT
from benchval.tasks.commonsense import PIQA_RUP_COLUMNS
from benchval.tasks.variants import add_task_variants, split_variant_name, variant_name


@pytest.fixture()
def config(catalogue):
    study = {"source": "scored", "models": ["m"], "tasks": ["piqa", "piqa_rup", "winogrande"]}
    return {
        "tasks": copy.deepcopy(catalogue["tasks"]),
        "datasets": catalogue["datasets"],
        "studies": {"main": dict(study), "other": dict(study)},
    }


def test_every_perturbation_becomes_one_variant_task(config):
    declared = set(config["tasks"])  # the catalogue's hand-declared variants (e.g. piqa_rup__changed_goals) aside
    add_task_variants(config)
    variants = {
        name: spec for name, spec in config["tasks"].items() if spec["role"] == "cs_variant" and name not in declared
    }
    assert sorted(variants) == sorted(f"piqa_rup__{column}" for column in PIQA_RUP_COLUMNS)
    leet = variants["piqa_rup__goal_Leet"]
    assert leet["options"] == {"perturbations": ["goal_Leet"], "combine": "random_per_item"}
    assert leet["pairs_with"] == "piqa" and leet["dataset"] == "piqa_rup" and leet["adapter"] == "piqa_rup"
    assert leet["label"] == "Physical IQA-RUP [goal_Leet]" and leet["paper_n"] is None and "variants" not in leet
    # without the switch no study scores them
    assert config["studies"]["main"]["tasks"] == ["piqa", "piqa_rup", "winogrande"]


def test_one_setting_adds_the_variants_to_that_study_only(config):
    config["studies"]["main"]["sensitivity_variants"] = True
    add_task_variants(config)
    add_task_variants(config)  # idempotent
    assert config["studies"]["main"]["tasks"] == ["piqa", "piqa_rup", "winogrande"] + [
        f"piqa_rup__{column}" for column in PIQA_RUP_COLUMNS
    ]
    assert config["studies"]["other"]["tasks"] == ["piqa", "piqa_rup", "winogrande"]


def test_switch_on_a_study_without_variant_tasks_is_an_error(config):
    config["studies"]["main"].update(tasks=["winogrande"], sensitivity_variants=True)
    with pytest.raises(ConfigError, match="studies.main.sensitivity_variants: none of the study's tasks"):
        add_task_variants(config)


def test_variants_only_on_reworked_tasks(config):
    config["tasks"]["piqa"]["variants"] = {"option": "x", "values": ["a"]}
    with pytest.raises(ConfigError, match="tasks.piqa.variants: only a cs_reworked task"):
        add_task_variants(config)


def test_variants_with_hand_exclusions_are_refused(config):
    config["tasks"]["piqa_rup"]["exclude_ids"] = "config/exclusions/piqa_rup.txt"
    with pytest.raises(ConfigError, match="not supported with exclude_ids"):
        add_task_variants(config)


def test_variant_names_round_trip():
    assert split_variant_name(variant_name("piqa_rup", "goal_HP")) == ("piqa_rup", "goal_HP")
    with pytest.raises(ValueError, match="not a variant name"):
        split_variant_name("piqa_rup")


def test_each_variant_builds_only_its_perturbation(config, mirror, tmp_path):
    from benchval.tasks.items import read_filter_report, read_items
    from benchval.tasks.prepare import prepare_task

    add_task_variants(config)
    files = {key: mirror / spec["path"] for key, spec in config["datasets"]["piqa_rup"]["files"].items()}
    sizes = {}
    for column in ("goal_Leet", "goal_It_cleft"):
        name = variant_name("piqa_rup", column)
        meta = prepare_task(
            name, config["tasks"][name], files, {"n_items": None}, 20261130, output=tmp_path / f"{name}.parquet"
        )
        items = read_items(tmp_path / f"{name}.parquet")
        assert Counter(item_id.rsplit("-", 1)[1] for item_id in items["id"]) == {column: meta["n_final"]}
        sizes[column] = meta["n_final"]
        assert meta["role"] == "cs_variant" and meta["pairs_with"] == "piqa"
        report = read_filter_report(tmp_path / f"{name}.filters.json")
        assert report["steps"][0]["filter"] == "repaired_solutions"
    assert sizes == {"goal_Leet": 1835, "goal_It_cleft": 1838}


def test_shipped_config_validates_with_the_switch_on():
    """The schemas accept `variants` and `sensitivity_variants` (as the workflow validates them)."""
    from snakemake.utils import validate

    config = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    for catalogue in catalogue_files(REPO_ROOT / "config" / "catalogue"):
        for key, value in yaml.safe_load(catalogue.read_text()).items():
            config.setdefault(key, {}).update(value)
    config["studies"]["default"]["sensitivity_variants"] = True
    validate(config, str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml"))
    add_task_variants(config)
    assert "piqa_rup__goal_comp" in config["studies"]["default"]["tasks"]
    validate(config, str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml"))  # generated tasks too
