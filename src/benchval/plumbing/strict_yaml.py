"""YAML that refuses a key given twice in one mapping (PyYAML, like Snakemake, keeps the last one
silently). :func:`load_yaml` reads one file; :func:`check_no_duplicate_keys` checks the config files
the workflow read (``workflow.configfiles``, in workflow/rules/common.smk), so that a config edit that
repeats a key fails at start-up naming the file and both lines, instead of quietly losing a value."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml


class DuplicateKeyError(ValueError):
    """A mapping in a YAML file gives one key twice; the message names file and lines."""


# libyaml's parser when PyYAML has it (about 8x faster on the config files, read at every start-up)
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class StrictLoader(_BASE):
    """yaml's safe loader whose mappings reject a repeated key."""


def _construct_mapping(loader: StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in seen:
            raise DuplicateKeyError(
                f"{key_node.start_mark.name}:{line}: key {key!r} given twice (first at line {seen[key]}); "
                f"YAML keeps only the last, so remove one"
            )
        seen[key] = line
    return yaml.constructor.SafeConstructor.construct_mapping(loader, node, deep=deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(path: str | Path) -> Any:
    """The content of a YAML file; a repeated key is a :class:`DuplicateKeyError` naming file and lines."""
    with open(path, encoding="utf-8") as handle:  # the marks then carry the file's name
        return yaml.load(handle, Loader=StrictLoader)  # noqa: S506 (a SafeLoader subclass)


def check_no_duplicate_keys(paths: Iterable[str | Path]) -> None:
    """:func:`load_yaml` every file (only to check it)."""
    for path in paths:
        load_yaml(path)
