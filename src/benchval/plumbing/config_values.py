"""Start-up checks on the config's values that jsonschema cannot make, each failing in one line that names the
key and the closest valid value (workflow/rules/common.smk; docs/configuration.md, "Start-up errors").

* :func:`check_schema`: the schema validation in one line. Snakemake's ``validate()`` answers a nested key typo
  (``analysis: {n_bootstrapp: 500}``) with the whole schema (238 lines); here the key, the closest known key.
* :func:`check_finite_numbers`: every number finite. jsonschema's ``minimum``/``maximum`` are comparisons, and
  every comparison with NaN is false, so ``.nan`` passes every bound (``analysis.fdr.alpha: .nan`` planned and
  ran with no test rejected); ``.inf`` passes every bound on one side. A value is named with its range and
  default, read from the schema.
* :func:`check_bootstrap_costs`: a bootstrap's memory is estimated from the number of models and refused above
  :data:`MAX_BOOTSTRAP_GIB`; its work is estimated and warned about above :data:`WARN_BOOTSTRAP_MINUTES`.
"""

from __future__ import annotations

import difflib
import logging
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from benchval.plumbing.config import _lookup, _registry, _schema_uri
from benchval.plumbing.config_error import ConfigError

log = logging.getLogger(__name__)

#: the most memory a bootstrap may ask for (:func:`bootstrap_bytes`); above it the start-up refuses
MAX_BOOTSTRAP_GIB = 8.0
#: above this estimated time (:func:`bootstrap_minutes`) the start-up warns, and goes on
WARN_BOOTSTRAP_MINUTES = 30.0
#: float64 arrays of n_bootstrap x n_models one pair's bootstrap holds at once (benchval.analysis.bootstrap:
#: the indices, the resampled pair, its ranks, centred and unit ranks, a margin for the copies numpy makes)
ARRAYS_PER_RESAMPLE = 8
#: CPU seconds per resample, model and task pair: the obsscaling study's analysis jobs (correlations, axes,
#: revisions, LOFO, specification grid) took about 150 s at 5,000 resamples of 148 models and 28 task pairs
#: (logs/benchmarks/ of the default run, 2026-12-06)
SECONDS_PER_MODEL_RESAMPLE = 7e-6
#: the bootstrap keys: where the resamples' count is written, and which models it resamples
BOOTSTRAP_KEYS = (
    "analysis.n_bootstrap",
    "atlas.n_bootstrap",
    "robustness.reliability.n_bootstrap",
    "items.n_bootstrap",
)

_SCHEMA = "config.schema.yaml"


def _dotted(path) -> str:
    return ".".join(str(part) for part in path)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---- the schema in one line -----------------------------------------------------------------------


def _unknown_key_message(error: ValidationError) -> str:
    known = sorted(error.schema.get("properties", {}))
    extra = [key for key in error.instance if key not in known]
    key = str(extra[0]) if extra else "?"
    where = _dotted(error.absolute_path)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"closest: {close[0]!r}" if close else f"the keys: {', '.join(known)}"
    return f"{where + '.' if where else ''}{key}: not a key of {where or 'the config'} ({hint})"


def schema_problem(config: Mapping) -> str | None:
    """The one-line message of the config's most relevant schema error (jsonschema's best_match), or None."""
    validator = Draft202012Validator({"$ref": _schema_uri(_SCHEMA)}, registry=_registry())
    error = best_match(validator.iter_errors(config))
    if error is None:
        return None
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        return _unknown_key_message(error)
    where = _dotted(error.absolute_path) or "config"
    expected = {key: error.schema[key] for key in ("type", "enum", "const") if key in error.schema}
    rule = f"{error.validator} {_short(error.validator_value)}"
    return f"{where}: {_short(error.instance)} is not valid ({rule}; {_short(expected)})"


def check_schema(config: Mapping) -> None:
    problem = schema_problem(config)
    if problem:
        raise ConfigError(problem + " (docs/configuration.md; the keys of each section: workflow/schemas/)")


# ---- finite numbers -------------------------------------------------------------------------------


def _numbers(value: Any, path: tuple) -> Iterator[tuple[tuple, float]]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _numbers(item, (*path, key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _numbers(item, (*path, index))
    elif isinstance(value, float):
        yield path, value


def _branches(schema: Mapping, base: str) -> Iterator[tuple[Mapping, str]]:
    """``schema`` and, through ``$ref``, ``allOf``, ``oneOf`` and ``anyOf``, every schema it stands for."""
    if "$ref" in schema:
        target, address = _lookup(schema["$ref"], base)
        yield from _branches(target, address.split("#")[0])
        return
    yield schema, base
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in schema.get(key, ()):
            yield from _branches(branch, base)


def _schema_at(path: tuple) -> Mapping | None:
    """The schema of the config key at ``path`` (the first branch that has it), or None."""
    found: list[tuple[Mapping, str]] = [({"$ref": _SCHEMA}, _schema_uri(_SCHEMA))]
    for part in path:
        following = []
        for schema, base in (pair for each in found for pair in _branches(*each)):
            if isinstance(part, int) and isinstance(schema.get("items"), Mapping):
                following.append((schema["items"], base))
            elif part in schema.get("properties", {}):
                following.append((schema["properties"][part], base))
            elif isinstance(schema.get("additionalProperties"), Mapping):
                following.append((schema["additionalProperties"], base))
        if not following:
            return None
        found = following[:1]
    merged: dict = {}
    for schema, _ in _branches(*found[0]):
        merged.update(schema)
    return merged


def valid_range(schema: Mapping | None) -> str:
    """``range (0, 1), default 0.05`` from the schema's bounds and default (empty parts left out)."""
    if not schema:
        return "a finite number"
    low = schema.get("exclusiveMinimum", schema.get("minimum"))
    high = schema.get("exclusiveMaximum", schema.get("maximum"))
    left = "(" if "exclusiveMinimum" in schema else "["
    right = ")" if "exclusiveMaximum" in schema else "]"
    bounds = f"range {left}{'-inf' if low is None else low}, {'inf' if high is None else high}{right}"
    default = f", default {schema['default']}" if "default" in schema else ""
    return bounds + default


def check_finite_numbers(config: Mapping) -> None:
    """Every number of the config is finite (YAML's ``.nan``, ``.inf`` are refused whatever the key)."""
    for path, value in _numbers(config, ()):
        if not math.isfinite(value):
            raise ConfigError(
                f"{_dotted(path)}: {value} is not a finite number; write one in its {valid_range(_schema_at(path))} "
                "(NaN passes every schema bound, so it is refused here)"
            )


# ---- costs ----------------------------------------------------------------------------------------


def _get(config: Mapping, dotted: str):
    value: Any = config
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def bootstrap_bytes(n_bootstrap: int, n_models: int) -> float:
    """Peak bytes of one pair's bootstrap (:data:`ARRAYS_PER_RESAMPLE` float64 arrays of n_bootstrap x n_models)."""
    return float(n_bootstrap) * n_models * 8 * ARRAYS_PER_RESAMPLE


def bootstrap_minutes(n_bootstrap: int, n_models: int, n_tasks: int) -> float:
    """Estimated CPU minutes of a study's bootstrap work (:data:`SECONDS_PER_MODEL_RESAMPLE`)."""
    pairs = max(1, n_tasks * (n_tasks - 1) // 2)
    return float(n_bootstrap) * n_models * pairs * SECONDS_PER_MODEL_RESAMPLE / 60


def check_bootstrap_costs(
    config: Mapping, studies: Mapping[str, tuple[int, int]], warn: Callable[[str], None] = log.warning
) -> None:
    """Refuse a bootstrap whose estimated memory exceeds :data:`MAX_BOOTSTRAP_GIB`; warn about one whose estimated
    time exceeds :data:`WARN_BOOTSTRAP_MINUTES`. ``studies``: study -> (models, tasks), as far as known at planning."""
    if not studies:
        return
    for key in BOOTSTRAP_KEYS:
        count = _get(config, key)
        if not isinstance(count, int) or isinstance(count, bool):
            continue
        study, (n_models, n_tasks) = max(studies.items(), key=lambda item: item[1][0])
        gib = bootstrap_bytes(count, n_models) / 2**30
        if gib > MAX_BOOTSTRAP_GIB:
            largest = int(MAX_BOOTSTRAP_GIB * 2**30 // (n_models * 8 * ARRAYS_PER_RESAMPLE))
            raise ConfigError(
                f"{key}: {count:,} resamples of study {study!r}'s {n_models} models need about {gib:,.0f} GiB, above "
                f"the limit of {MAX_BOOTSTRAP_GIB:g} GiB (benchval.plumbing.config_values.MAX_BOOTSTRAP_GIB); at most "
                f"{largest:,}"
            )
        study, minutes = max(
            ((name, bootstrap_minutes(count, *size)) for name, size in studies.items()), key=lambda x: x[1]
        )
        if minutes > WARN_BOOTSTRAP_MINUTES:
            warn(
                f"{key}: {count:,} resamples take about {minutes:,.0f} minutes of CPU for study {study!r} alone "
                f"(estimate, benchval.plumbing.config_values; warned above {WARN_BOOTSTRAP_MINUTES:g}); going on"
            )
