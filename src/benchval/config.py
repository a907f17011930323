"""Checks on the merged configuration that a JSON schema cannot express (cross-references)."""

from __future__ import annotations

from pathlib import Path

from benchval.paths import REPO_ROOT


class ConfigError(ValueError):
    """A configuration problem; the message names the offending key."""


def resolve_mirror(mirror: str | None) -> Path | None:
    """The mirror directory as an absolute path (relative paths are taken from the repo root), or None."""
    if mirror is None:
        return None
    path = Path(mirror)
    return path if path.is_absolute() else (REPO_ROOT / path).resolve()


def check_references(config: dict) -> None:
    """Every study names known models and tasks; every task names a known dataset and pair."""
    models, tasks, datasets = config["models"], config["tasks"], config["datasets"]
    for study, spec in config["studies"].items():
        if spec["source"] != "scored":
            continue
        for key, known in (("models", models), ("tasks", tasks)):
            for name in spec[key]:
                if name not in known:
                    raise ConfigError(
                        f"studies.{study}.{key}: unknown name {name!r}; declared {key}: {sorted(known)}"
                    )
    for task, spec in tasks.items():
        if spec.get("dataset") is not None and spec["dataset"] not in datasets:
            raise ConfigError(f"tasks.{task}.dataset: unknown dataset {spec['dataset']!r}")
        partner = spec.get("pairs_with")
        if partner is not None and partner not in tasks:
            raise ConfigError(f"tasks.{task}.pairs_with: unknown task {partner!r}")
