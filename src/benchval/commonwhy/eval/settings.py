"""The `commonwhy_eval:` config section with its defaults (taken from the section's JSON schema)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import jsonschema
import yaml

from benchval.plumbing.folders import REPO_ROOT
from benchval.plumbing.config_error import unknown_name

SCHEMA_PATH = REPO_ROOT / "workflow" / "schemas" / "commonwhy_eval.schema.yaml"


@lru_cache(maxsize=1)
def schema() -> dict:
    return yaml.safe_load(SCHEMA_PATH.read_text())


def _defaults(node: Mapping) -> Any:
    """The value a schema node stands for when absent: objects are filled property by property."""
    if node.get("type") == "object" and "properties" in node:
        filled = copy.deepcopy(node.get("default", {}))
        for name, child in node["properties"].items():
            if name in filled:
                continue
            if child.get("type") == "object" and "properties" in child:
                filled[name] = _defaults(child)
            elif "default" in child:
                filled[name] = copy.deepcopy(child["default"])
        return filled
    return copy.deepcopy(node.get("default"))


def _merge(defaults: Any, given: Any, node: Mapping) -> Any:
    if isinstance(given, Mapping) and isinstance(defaults, Mapping) and "properties" in node:
        merged = dict(defaults)
        for key, value in given.items():
            child = node["properties"].get(key, {})
            merged[key] = _merge(defaults.get(key), value, child)
        return merged
    return copy.deepcopy(given)


def resolve(section: Mapping | None) -> dict:
    """The section validated against its schema, with every default filled in."""
    section = dict(section or {})
    try:
        jsonschema.validate(section, schema())
    except jsonschema.ValidationError as error:
        where = "commonwhy_eval." + ".".join(str(p) for p in error.absolute_path)
        raise ValueError(f"{where}: {error.message}") from error
    return _merge(_defaults(schema()), section, schema())


def reads_with_llm(factscore: Mapping) -> bool:
    """True when the ``factscore`` settings split claims or name entities with the LLM (``claim_system``)."""
    return factscore["claims"] == "llm" or factscore["entities"] == "llm"


def answering_endpoints(settings: Mapping) -> list[str]:
    """Endpoints that answer the questions (an endpoint with `answers: false` only judges or splits claims)."""
    return [name for name, entry in settings["endpoints"].items() if entry["answers"]]


def all_systems(settings: Mapping) -> list[str]:
    """Every answering system: models, endpoints (unless `answers: false`) and the baselines run with the backbone."""
    systems = list(settings["models"]) + answering_endpoints(settings)
    backbone = settings["baselines"]["backbone"]
    if backbone:
        systems += [f"{method}-{backbone}" for method in settings["baselines"]["methods"]]
    return systems


def check_names(settings: Mapping, models: Mapping) -> None:
    """Model and endpoint names refer to declared ones and do not collide."""
    known = set(models) | set(settings["endpoints"])
    for name in settings["models"]:
        if name not in models:
            raise ValueError("commonwhy_eval.models: " + unknown_name("model", name, models, "the config's models"))
    clash = set(settings["models"]) & set(settings["endpoints"])
    if clash:
        raise ValueError(f"commonwhy_eval.endpoints: names also used by models: {sorted(clash)}")
    judge = settings["judge"]["system"]
    if judge not in known:
        raise ValueError(
            "commonwhy_eval.judge.system: "
            + unknown_name("judge", judge, known, "the config's models and commonwhy_eval.endpoints")
        )
    if settings["judge"]["decision"] != "generate" and judge not in models:
        raise ValueError(
            "commonwhy_eval.judge.decision: logprob and calibrated need a local model; use generate for endpoints"
        )
    backbone = settings["baselines"]["backbone"]
    if backbone and backbone not in models:
        raise ValueError(
            "commonwhy_eval.baselines.backbone: " + unknown_name("model", backbone, models, "the config's models")
        )
    if backbone and "kgr" in settings["baselines"]["methods"] and backbone not in settings["models"]:
        raise ValueError(
            f"commonwhy_eval.baselines: KGR revises the backbone's own answers, so {backbone!r} "
            "must also be listed in commonwhy_eval.models"
        )
    if backbone:
        unsampled = [s for s in settings["baselines"]["sources"] if settings["sample"][s] == 0]
        if unsampled:
            raise ValueError(f"commonwhy_eval.baselines.sources: {unsampled} not sampled (commonwhy_eval.sample)")
    unknown = set(settings["judge_check"]["answer_models"] or []) - set(settings["models"])
    if unknown:
        raise ValueError(f"commonwhy_eval.judge_check.answer_models: {sorted(unknown)} not in commonwhy_eval.models")
    claim = settings["factscore"]["claim_system"]
    if reads_with_llm(settings["factscore"]) and claim not in known:
        raise ValueError(
            "commonwhy_eval.factscore.claim_system: needed (a model or endpoint) when claims: llm or entities: llm"
        )
