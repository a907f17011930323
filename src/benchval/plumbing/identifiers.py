"""Names that become rule names or paths are identifiers, checked when the workflow is planned.

A study, a task key of an imported study, a model, an atlas criterion or source, a CommonWhy system and an
items source or study each name files (``results/studies/<study>/``, ``resources/models/<model>/``,
``results/atlas/figures/forest_<criterion>.png``) and some name rules (``study_<study>``,
``score_model_<model>``, ``items_irt_<source>``). Each must match :data:`IDENTIFIER`: a letter or digit,
then letters, digits, ``_``, ``.`` and ``-``, at most 100 characters. So no ``.`` or ``..``, no ``/`` or
``\\``, no space, control or other character. Rule names replace every character that is not a word
character by ``_`` (:func:`rule_key`), and file systems may ignore case, so two names whose
:func:`rule_key` agree once lower-cased (``a.b``, ``A-b``, ``a_b``) would share a rule or a path: they are
refused, naming both.

A name shown to people (a task's ``label``, an atlas display name) is a label, not an identifier: it may be
any text, and every page escapes it (benchval.report.safe_text).

:func:`check_no_foreign_symlinks` refuses a symlink under ``results/`` that points outside it: an output is
never written through one (Snakemake would take the foreign file as a finished output, or overwrite it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from benchval.plumbing.config_error import ConfigError

#: the one pattern of every name that becomes a rule name or a path
IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
PATTERN_TEXT = "a letter or digit, then letters, digits, '_', '.' or '-' (at most 100 characters)"


class IdentifierError(ConfigError):
    """A name that would become a rule name or path is not an identifier, or two names would be one."""


def rule_key(name: str) -> str:
    """The rule name and path a name gets, as a case-insensitive file system sees it."""
    return re.sub(r"\W", "_", name).casefold()


def check_names(key: str, names: Iterable[object], used_as: str) -> None:
    """Every name under the config ``key`` is an identifier and no two share a :func:`rule_key`; ``used_as``
    says which rule or path each becomes (``"results/studies/<name>/ and rule study_<name>"``)."""
    seen: dict[str, str] = {}
    for name in names:
        text = str(name)
        if not isinstance(name, str) or not IDENTIFIER.fullmatch(text):
            raise IdentifierError(
                f"{key}: {text!r} is not an identifier ({PATTERN_TEXT}); it would become {used_as}. "
                "Rename it (a name shown to people belongs in a label)"
            )
        other = seen.setdefault(rule_key(text), text)
        if other != text:
            raise IdentifierError(
                f"{key}: {other!r} and {text!r} would share one rule or path ({used_as}, "
                f"{rule_key(text)!r}): rename one of them"
            )


def _imported_task_keys(studies: Mapping) -> Iterable[tuple[str, list[str]]]:
    for study, entry in studies.items():
        tasks = entry.get("tasks") if isinstance(entry, Mapping) else None
        if isinstance(tasks, Mapping):
            yield study, list(tasks)


def check_config_names(config: Mapping, systems: Iterable[str] = ()) -> None:
    """The names of the config (see the module docstring) and the CommonWhy ``systems`` (called once, at
    planning, by workflow/rules/common.smk)."""
    check_names("studies", config.get("studies") or {}, "results/studies/<name>/ and rule study_<name>")
    for study, keys in _imported_task_keys(config.get("studies") or {}):
        check_names(f"studies.{study}.tasks", keys, "a task key of the study's score_table.csv and tasks.csv")
    check_names("models", config.get("models") or {}, "resources/models/<name>/ and rule score_model_<name>")
    atlas = config.get("atlas") or {}
    criteria = (atlas.get("human_preference") or {}).get("criteria") or []
    check_names("atlas.human_preference.criteria", criteria, "results/atlas/figures/forest_<name>.<format>")
    check_names("atlas.study_tables", atlas.get("study_tables") or {}, "results/atlas/studies/<name>.csv")
    check_names("commonwhy_eval (systems)", systems, "results/commonwhy_eval/answers/<name>.parquet")
    items = config.get("items") or {}
    check_names("items.sources", items.get("sources") or {}, "results/items/<name>/ and rule items_irt_<name>")
    check_names("items.studies", items.get("studies") or {}, "results/items/<name>/")


def check_no_foreign_symlinks(root: str | Path = "results") -> None:
    """No symlink under ``root`` points outside it (an output is never written through one)."""
    base = Path(root)
    if not base.is_dir():
        return
    inside = base.resolve()
    for folder, subfolders, files in os.walk(base):
        for name in (*subfolders, *files):
            path = Path(folder) / name
            if path.is_symlink():
                target = path.resolve()
                if target != inside and inside not in target.parents:
                    raise IdentifierError(
                        f"{path} is a symlink to {target}, outside {root}/: an output is never written through "
                        "one; remove the link (rm it) and rerun"
                    )
