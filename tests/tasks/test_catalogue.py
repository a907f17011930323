"""The commonsense task folders (src/benchval/tasks/catalogue/<task>/task.yaml) against their schemas and the
paper's design."""

from __future__ import annotations

import jsonschema
import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.tasks.base import known_adapters

SCHEMAS = REPO_ROOT / "workflow" / "schemas"
MINIMAL_TASK = {"adapter": "a", "dataset": None, "role": "cs_original", "scoring_mode": "mc", "metrics": ["accuracy"]}


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(yaml.safe_load((SCHEMAS / f"{name}.schema.yaml").read_text()))


def test_sections_validate(catalogue):
    validator("tasks").validate(catalogue["tasks"])
    validator("tasks").validate({"t": MINIMAL_TASK})  # so that each bad case below fails for its one change
    validator("datasets").validate(catalogue["datasets"])
    validator("sample").validate(yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["sample"])


@pytest.mark.parametrize(
    "section, bad",
    [
        ("tasks", {"t": {**MINIMAL_TASK, "typo_key": 1}}),
        ("tasks", {"t": {**MINIMAL_TASK, "axes": ["physical"]}}),
        ("datasets", {"d": {"files": {"data": {"path": "d/x", "url": "https://x", "sha256": "abc"}}}}),
        ("datasets", {"d": {"files": {"data": {"path": "../x", "url": "https://x", "sha256": "0" * 64}}}}),
        ("sample", {"n_items": 24, "per_tsk": {}}),
    ],
)
def test_unknown_keys_and_bad_values_fail(section, bad):
    with pytest.raises(jsonschema.ValidationError):
        validator(section).validate(bad)


def test_design_of_the_paper(catalogue):
    """Table 1 pairs, the axes of section 3.2 (reworked inherit), and registered adapters."""
    tasks = catalogue["tasks"]
    pairs = {name: spec["pairs_with"] for name, spec in tasks.items() if spec["role"] == "cs_reworked"}
    assert pairs == {
        "winowhat": "winogrande",
        "goldenswag": "hellaswag",
        "socialiqa_filtered": "socialiqa",
        "piqa_rup": "piqa",
    }
    assert tasks["socialiqa"]["axes"] == ["social", "pragmatic"]
    assert tasks["hellaswag"]["axes"] == tasks["piqa"]["axes"] == ["event", "pragmatic"]
    assert tasks["winogrande"]["axes"] == ["pragmatic"]
    for reworked, original in pairs.items():
        assert tasks[reworked]["axes"] == tasks[original]["axes"]
    assert set(spec["adapter"] for spec in tasks.values()) <= set(known_adapters())
    assert all(spec["dataset"] in catalogue["datasets"] for spec in tasks.values() if spec["dataset"])
