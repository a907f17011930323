"""One model entry of the config (`models:` section): validate it and turn it into a ModelSpec.

The rules live in workflow/schemas/models.schema.yaml (also used by Snakemake's validate); this
module applies the same schema to a single entry so that errors name the model and the key.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import Any

import jsonschema
import yaml

from benchval.plumbing.folders import REPO_ROOT

SCHEMA_PATH = REPO_ROOT / "workflow" / "schemas" / "models.schema.yaml"
SOURCE_TYPES = {"hf": "hf_source", "gguf_wheels": "gguf_wheels_source", "local": "local_source"}
# Sources that deliver a published model's real weights: prepare_model enforces the sanity check
# (benchval.models.checks) on them unless the entry says `sanity_check: false`. A local folder may
# hold random test weights: checked only with `sanity_check: true`.
REAL_WEIGHT_SOURCES = ("gguf_wheels", "hf")
# The keys of a model entry, by who reads them (every key of models.schema.yaml is in exactly one list:
# tests/test_rule_settings.py). The rules name them with the one helper (benchval.jobs.rule_settings):
# * RESULT_KEYS: what changes a prepared file or a score; prepare_model, the scoring rules and the
#   CommonWhy rules pass exactly these, so an edit of one reruns them;
# * PLANNING_KEYS: read only by the planning of the workflow (job layout, cluster resources): no job
#   script needs them, so no rule passes them;
# * PLACEMENT_KEYS (where a model's layers go): model jobs read them, but a change must rerun no
#   scoring job, so the scoring rules pass them beside their rerun trigger, as a derived param.
RESULT_KEYS = ("family", "size_b", "dtype", "device", "sanity_check", "source")
PLANNING_KEYS = ("scoring_jobs", "job_size_b")
PLACEMENT_KEYS = ("max_memory_per_gpu_gb", "cpu_offload_gb")
EXECUTION_KEYS = PLANNING_KEYS + PLACEMENT_KEYS  # what no rule's rerun trigger holds


def entry_without(entry: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """The model entry ``entry`` less ``keys`` (EXECUTION_KEYS or PLANNING_KEYS): what a rule passes on."""
    return {key: value for key, value in entry.items() if key not in keys}


class ModelConfigError(ValueError):
    """A model entry of the config is invalid."""


@dataclass(frozen=True)
class ModelSpec:
    """A validated model entry. `source` is the config's source mapping, defaults filled in."""

    name: str
    family: str
    size_b: float
    dtype: str
    device: str
    source: dict[str, Any] = field(hash=False)
    sanity_check: bool | None = None

    @property
    def source_type(self) -> str:
        return self.source["type"]

    @property
    def checks_sanity(self) -> bool:
        """Whether prepare_model enforces the sanity check (`sanity_check`, else by source type)."""
        if self.sanity_check is not None:
            return self.sanity_check
        return self.source_type in REAL_WEIGHT_SOURCES

    def to_dict(self) -> dict[str, Any]:
        """The entry as written in the manifest."""
        return {
            "name": self.name,
            "family": self.family,
            "size_b": self.size_b,
            "dtype": self.dtype,
            "device": self.device,
            "source": dict(self.source),
        }


@functools.cache
def load_schema() -> dict[str, Any]:
    """The `models:` section schema (workflow/schemas/models.schema.yaml)."""
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _validate(instance: Any, definition: str, where: str) -> None:
    """Validate `instance` against `$defs/<definition>`; raise ModelConfigError naming `where`."""
    schema = load_schema()
    sub_schema = {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    validator_cls = jsonschema.validators.validator_for(schema)
    errors = sorted(validator_cls(sub_schema).iter_errors(instance), key=lambda e: list(e.path))
    if errors:
        lines = []
        for error in errors:
            key = ".".join(str(part) for part in error.path)
            lines.append(f"  {where}{'.' + key if key else ''}: {error.message}")
        raise ModelConfigError("invalid model config:\n" + "\n".join(lines))


def parse_model_entry(name: str, entry: Any) -> ModelSpec:
    """Validate config entry `models.<name>` and return a ModelSpec.

    Raises ModelConfigError naming `models.<name>` and the offending key.
    """
    where = f"models.{name}"
    name_pattern = load_schema()["propertyNames"]["pattern"]
    if not isinstance(name, str) or not jsonschema.Draft202012Validator({"pattern": name_pattern}).is_valid(name):
        raise ModelConfigError(f"invalid model name {name!r}: must match {name_pattern}")
    if not isinstance(entry, dict):
        raise ModelConfigError(f"{where}: expected a mapping, got {type(entry).__name__}")
    source = entry.get("source")
    # Check the source by its declared type first: a oneOf failure would say nothing useful.
    if isinstance(source, dict):
        source_type = source.get("type")
        if source_type not in SOURCE_TYPES:
            raise ModelConfigError(f"{where}.source.type: {source_type!r} is not one of {sorted(SOURCE_TYPES)}")
        _validate(source, SOURCE_TYPES[source_type], f"{where}.source")
    _validate(entry, "model", where)
    source = dict(source)
    if source["type"] == "hf":
        source.setdefault("revision", None)
    return ModelSpec(
        name=name,
        family=entry["family"],
        size_b=float(entry["size_b"]),
        dtype=entry.get("dtype", "float32"),
        device=entry.get("device", "cpu"),
        source=source,
        sanity_check=entry.get("sanity_check"),
    )


def parse_models(section: Any) -> dict[str, ModelSpec]:
    """Validate a whole `models:` section (name -> entry)."""
    if not isinstance(section, dict):
        raise ModelConfigError(f"models: expected a mapping, got {type(section).__name__}")
    return {name: parse_model_entry(name, entry) for name, entry in section.items()}


def job_resources(size_b: float) -> dict[str, int]:
    """mem_mb and runtime (minutes) for preparing a model of `size_b` billion parameters.

    Measured process peaks when dequantising (2-core CPU, transformers 5.24): SmolLM2-135M
    1.4 GB, Gemma-3-270M 3.3 GB (large vocabulary), Qwen2.5-Coder-0.5B 3.8 GB; wall time
    46-196 s. The request keeps >= 25% headroom over those (2.5 GB + 6 GB per billion).
    """
    mem_mb = 2560 + 6000 * size_b
    runtime_min = 10 + 20 * size_b
    return {"mem_mb": int(math.ceil(mem_mb / 256) * 256), "runtime": int(math.ceil(runtime_min))}
