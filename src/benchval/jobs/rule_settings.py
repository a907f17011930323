"""The one way a rule names the config keys it reads (docs/workflow.md, "What reruns when").

Every rule passes config values to its job through :class:`ConfigProvider` (``config_provider`` in each
rule file, as PyPSA-Eur's ``config_provider("section", "key")``), as params::

    params:
        analysis=config_provider("analysis", *STEP_SETTINGS["lofo"], defaults={"seed": "seed"}),
        dpi=config_provider("analysis.figures.dpi"),
        entry=config_provider("models.{model}", *RESULT_KEYS),

Snakemake reruns a job when the ``repr`` of one of its params changed, so a key's edit reruns exactly
the rules that name it, and what follows them. The value is canonical (every mapping's keys sorted:
reordering a config file reruns nothing); a mapping whose ``repr`` is long is given as
benchval.jobs.reruns.Settings, whose ``repr`` is a digest, so that a dry run's reason stays one short line
(``python -m benchval.jobs.reruns changed BEFORE NOW`` names the changed keys). Where the job guards its
reads (benchval.analysis.chain.StepSettings, benchval.commonwhy.eval.stage_keys.stage_settings), the keys
the rule names are the same declaration the guard checks, so a job reading a key its rule did not name
fails, naming the key.

* ``config_provider(path)``: the value at the dotted ``path`` (``"seed"``, ``"analysis.figures.dpi"``).
* ``config_provider(path, *keys)``: only the named dotted ``keys`` of that section (``"fdr"`` is the whole
  sub-section, ``"irt.models"`` one entry of it). A named key the section lacks is left out (it is an
  optional key: setting it later changes the value and reruns the rule).
* ``path`` as a tuple of parts where a name holds dots (``("models", "Qwen2.5-0.5B")``).
* A ``{wildcard}`` part of ``path`` (``"models.{model}"``, ``"studies.{study}"``) makes it a function of
  the job's wildcards, for Snakemake to call per job.
* ``default=value``: the value when ``path`` is absent (an optional key; else a KeyError naming it).
* ``defaults={key: path}``: a key the section lacks is filled from the config value at ``path``
  (``analysis.seed`` falls back to the top-level ``seed``).

Where a param is computed from config keys (a sample size with a per-task override, say), the rule file
says which keys it reads in the function's docstring; the params are still the keys' values, never a path
to a file (a file a job reads is an input: benchval.jobs.rule_files).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from benchval.plumbing.dotted_keys import pick
from benchval.jobs.reruns import canonical, settings_param

_WILDCARD = re.compile(r"^\{(\w+)\}$")
_REQUIRED = object()


class ConfigProvider:
    """Config values for rule params, by dotted path and named keys (the module's docstring)."""

    def __init__(self, config: Mapping, sections: Mapping[str, Mapping] | None = None):
        """``config``: Snakemake's config (its schema defaults filled); ``sections``: top-level sections to
        read instead of the config's own (a section resolved with its defaults, e.g. ``commonwhy_eval``)."""
        self._config = config
        self._sections = dict(sections or {})

    def __call__(
        self,
        path: str | tuple[str, ...],
        *keys: str,
        defaults: Mapping[str, str] | None = None,
        default: Any = _REQUIRED,
    ) -> Any:
        parts = path.split(".") if isinstance(path, str) else list(path)
        if any(_WILDCARD.match(part) for part in parts):
            return lambda wildcards: self._value(_fill(parts, wildcards), keys, defaults, default)
        return self._value(parts, keys, defaults, default)

    def _value(self, parts: list[str], keys, defaults, default) -> Any:
        try:
            node = self._lookup(parts)
        except KeyError:
            if default is _REQUIRED:
                raise
            return default
        if defaults:
            node = {**{key: self._lookup(source.split(".")) for key, source in defaults.items()}, **node}
        if keys:
            node = pick(node, keys, ".".join(parts), missing="skip")
        return settings_param(canonical(node))

    def _lookup(self, parts: list[str]) -> Any:
        first, *rest = parts
        if first in self._sections:
            node = self._sections[first]
        elif first in self._config:
            node = self._config[first]
        else:
            raise KeyError(f"config: no key {first!r}")
        for depth, part in enumerate(rest, start=1):
            if not isinstance(node, Mapping) or part not in node:
                raise KeyError(f"config: no key {'.'.join(parts[: depth + 1])!r}")
            node = node[part]
        return node


def _fill(parts: list[str], wildcards) -> list[str]:
    """The path's ``{wildcard}`` parts replaced by the job's values (a model name may hold dots)."""
    filled = []
    for part in parts:
        match = _WILDCARD.match(part)
        filled.append(getattr(wildcards, match.group(1)) if match else part)
    return filled


def config_provider_for(config: Mapping, **sections: Mapping) -> Callable[..., Any]:
    """The ``config_provider`` of a rule file (``sections``: resolved top-level sections, as in
    :class:`ConfigProvider`)."""
    return ConfigProvider(config, sections)
