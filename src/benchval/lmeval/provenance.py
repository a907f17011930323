"""What a results JSON says about its run, and whether a study's runs can be compared.

Read, not retyped: the model's size from ``config.model_num_parameters`` (in billions), its dtype,
revision and sha (``config.model_dtype``, ``model_revision``, ``model_sha``); per task its version,
few-shot count (``n-shot``), hash (``task_hashes``) and the chat template (``chat_template_sha``).
The family comes from the study's ``models`` mapping or, where it names none, from the model
registry's family rules (``family_rules``; :func:`family_of`).

Runs are not comparable (:func:`comparability_problems`, each message names model and task) when a
run set ``limit``, when one task's version, hash or few-shot count differs between models, when some
models ran with a chat template and others without, or when one document's hash differs between
models (this project's output has no task hashes; the document hashes stand in for them).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from benchval.analysis.model_names import clean, normalise
from benchval.lmeval.errors import LmEvalImportError

log = logging.getLogger(__name__)


@dataclass
class RunProvenance:
    source_model: str
    results: Path
    size_b: float | None
    dtype: str | None
    revision: str | None
    sha: str | None
    limit: object
    chat_template_sha: str | None
    versions: dict = field(default_factory=dict)
    n_shot: dict = field(default_factory=dict)
    task_hashes: dict = field(default_factory=dict)


def model_args(value) -> dict:
    """``model_args`` as a dict (lm-eval writes either ``"k=v,k=v"`` or a dict)."""
    if isinstance(value, dict):
        return value
    pairs = [item.split("=", 1) for item in str(value or "").split(",") if "=" in item]
    return {key.strip(): val.strip() for key, val in pairs}


def source_model_of(payload: dict, model_key: str, path: Path) -> str:
    config = payload.get("config") or {}
    value = model_args(config.get("model_args")).get(model_key)
    if value is None:
        raise LmEvalImportError(f"{path}: config.model_args has no {model_key!r} (the study's model_key)")
    return str(value)


def _size_b(config: dict, path: Path) -> float | None:
    value = config.get("model_num_parameters")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise LmEvalImportError(f"{path}: config.model_num_parameters {value!r} is not a positive number")
    return float(value) / 1e9


def read_provenance(payload: dict, model_key: str, path: Path) -> RunProvenance:
    config = payload.get("config") or {}
    return RunProvenance(
        source_model=source_model_of(payload, model_key, path),
        results=path,
        size_b=_size_b(config, path),
        dtype=config.get("model_dtype"),
        revision=config.get("model_revision"),
        sha=config.get("model_sha") or None,
        limit=config.get("limit"),
        chat_template_sha=payload.get("chat_template_sha"),
        versions=dict(payload.get("versions") or {}),
        n_shot=dict(payload.get("n-shot") or {}),
        task_hashes=dict(payload.get("task_hashes") or {}),
    )


def family_of(source_model: str, mapping: dict, where: str, family_rules: str | Path | None = None) -> str:
    """The model's family: the study's ``models`` mapping where it names one (a reviewed override),
    else the model registry's family rules (:mod:`benchval.atlas.registry`) on the model_args value."""
    family = (mapping or {}).get("family")
    if family:
        return str(family)
    if family_rules is None:
        raise LmEvalImportError(f"{where}: models.{source_model}.family is not set (nor family_rules)")
    from benchval.analysis.model_names import parse
    from benchval.atlas.registry import family_of as registry_family, load_rules

    parsed = parse(source_model)
    family, _why = registry_family(parsed.key, parsed.org, load_rules(family_rules))
    if family is None:
        raise LmEvalImportError(
            f"{where}: no family rule of {family_rules} matches {source_model!r}; set models.{source_model}.family"
        )
    return family


def model_names(study_name: str, models: dict) -> dict[str, str]:
    """model_args value -> the name the study writes: each mapping's ``name`` cleaned as every importer cleans
    model names (benchval.analysis.model_names.clean), each change logged; two names that are one model by the
    project's name rule (model_names.normalise) are an error naming both keys."""
    names, changed, seen = {}, [], {}
    for source_model, mapping in models.items():
        raw = str(mapping["name"])
        names[source_model] = clean(raw)
        if not names[source_model]:
            raise LmEvalImportError(f"study {study_name!r}: models.{source_model}.name {raw!r} is empty once cleaned")
        if names[source_model] != raw.strip():
            changed.append(f"models.{source_model}.name: {raw!r} -> {names[source_model]!r}")
        key = normalise(names[source_model])
        if key in seen:
            earlier = seen[key]
            raise LmEvalImportError(
                f"study {study_name!r}: models.{source_model}.name {raw!r} and models.{earlier}.name "
                f"{str(models[earlier]['name'])!r} are one model by the name rule (benchval.analysis.model_names); "
                "give them two names"
            )
        seen[key] = source_model
    if changed:
        log.warning(
            "study %s: %d model names held control, format or compatibility characters, cleaned (NFKC, Cc/Cf "
            "removed): %s",
            study_name,
            len(changed),
            ", ".join(changed[:5]),
        )
    return names


def size_of(run: RunProvenance, mapping: dict, where: str) -> float:
    """``size_b`` from the results JSON; the mapping's ``size_b`` where the JSON has none."""
    if run.size_b is not None:
        return run.size_b
    if mapping.get("size_b") is not None:
        return float(mapping["size_b"])
    raise LmEvalImportError(
        f"{run.results}: no config.model_num_parameters; set {where}.size_b for model {run.source_model!r}"
    )


def _differs(runs: list[RunProvenance], task: str, attribute: str, label: str) -> list[str]:
    values = {r.source_model: getattr(r, attribute).get(task) for r in runs if task in getattr(r, attribute)}
    if len({repr(v) for v in values.values()}) <= 1:
        return []
    return [f"task {task!r}: {label} differs between models: {values}"]


def comparability_problems(runs: list[RunProvenance], tasks: list[str], doc_hashes: dict) -> list[str]:
    """Why the runs are not comparable (empty when they are); ``doc_hashes``: task -> model -> hashes."""
    problems = [
        f"model {r.source_model!r}: {r.results} ran with limit {r.limit!r} (a subset of the task's documents)"
        for r in runs
        if r.limit not in (None, "None")
    ]
    for task in tasks:
        for attribute, label in (("versions", "version"), ("task_hashes", "task hash"), ("n_shot", "few-shot count")):
            problems += _differs(runs, task, attribute, label)
        hashes = {model: h for model, h in doc_hashes.get(task, {}).items() if h is not None}
        if len({tuple(h) for h in hashes.values()}) > 1:
            problems.append(f"task {task!r}: document hashes differ between models {sorted(hashes)}")
    templated = sorted({r.source_model for r in runs if r.chat_template_sha})
    plain = sorted({r.source_model for r in runs if not r.chat_template_sha})
    if templated and plain:
        problems.append(f"chat template on models {templated} only, not on {plain}")
    return problems
