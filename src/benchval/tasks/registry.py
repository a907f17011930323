"""The task registry: one folder per task, found by name (src/benchval/tasks/catalogue/<task>/).

A task's folder holds ``task.yaml`` (its catalogue entry, merged into the workflow's config by
:func:`benchval.plumbing.config.catalogue_files`), ``adapter.py`` (the adapter it names, registered with
:func:`benchval.tasks.base.register`; a variant reusing another task's adapter has none) and ``README.md``
(its notes). Nothing lists the folders: a new one is found by its ``task.yaml``, a new adapter by its
``@register("name")`` (read from the source, so that finding one imports only its module), and an unknown
name is an error with the closest known one.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from benchval.plumbing.config_error import ConfigError, unknown_name
from benchval.plumbing.folders import TASK_FOLDERS
from benchval.plumbing.strict_yaml import load_yaml

TASK_FILE = "task.yaml"
NOTES_FILE = "README.md"
REGISTRY = "the task registry, src/benchval/tasks/catalogue/<task>/"
#: an adapter: (AdapterInput, FilterReport) -> items (benchval.tasks.base.Adapter)
Adapter = Callable[..., Iterable]
_ADAPTERS: dict[str, Adapter] = {}


def register(name: str) -> Callable[[Adapter], Adapter]:
    """Decorator: make an adapter available to config under ``name`` (imported as benchval.tasks.base.register).

    The decorated function's module is a task folder's adapter.py: :func:`adapter_files` finds it by reading
    ``register("name")`` from the source, and :func:`get_adapter` imports it when the adapter is first looked
    up, so adding a task means one folder, nothing else."""

    def decorate(adapter: Adapter) -> Adapter:
        if name in _ADAPTERS:
            raise ValueError(f"adapter {name!r} registered twice")
        _ADAPTERS[name] = adapter
        return adapter

    return decorate


def task_folders(root: Path = TASK_FOLDERS) -> dict[str, Path]:
    """{task: its folder} of every folder of ``root`` with a task.yaml, in name order."""
    return {path.parent.name: path.parent for path in sorted(Path(root).glob(f"*/{TASK_FILE}"))}


def task_folder(name: str, root: Path = TASK_FOLDERS) -> Path:
    """The folder of task ``name``; an unknown name is a :class:`ConfigError` with the closest task."""
    folders = task_folders(root)
    if name not in folders:
        raise ConfigError(unknown_name("task", name, folders, REGISTRY))
    return folders[name]


def registered_names(source: str) -> list[str]:
    """The names a module's source registers: the first argument of every ``register("name")`` call."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func
            called = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
            if called == "register" and isinstance(node.args[0].value, str):
                names.append(node.args[0].value)
    return names


def adapter_files(root: Path = TASK_FOLDERS) -> dict[str, Path]:
    """{adapter name: the module file that registers it} over every task folder's Python files."""
    return dict(_adapter_files(str(Path(root).resolve())))


@lru_cache(maxsize=None)
def _adapter_files(root: str) -> tuple[tuple[str, Path], ...]:
    found: dict[str, Path] = {}
    for folder in task_folders(Path(root)).values():
        for path in sorted(folder.glob("*.py")):
            for name in registered_names(path.read_text(encoding="utf-8")):
                if name in found:
                    raise ValueError(f"adapter {name!r} registered twice: in {found[name]} and {path}")
                found[name] = path
    return tuple(sorted(found.items()))


def adapter_file(name: str, root: Path = TASK_FOLDERS) -> Path:
    """The module that registers adapter ``name`` (rule prepare_task's code digest of the task reads it)."""
    files = adapter_files(root)
    if name not in files:
        raise KeyError(unknown_name("task adapter", name, files, f"{REGISTRY} (adapter.py: @register)"))
    return files[name]


def _import_file(path: Path) -> None:
    """Import one task folder's module by its file, as ``benchval.tasks.catalogue.<task>.<module>``."""
    module = f"benchval.tasks.catalogue.{path.parent.name}.{path.stem}"
    if module in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(module, path)
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[module] = loaded
    try:
        spec.loader.exec_module(loaded)
    except BaseException:
        del sys.modules[module]
        raise


def get_adapter(name: str, root: Path = TASK_FOLDERS) -> Adapter:
    """The adapter registered as ``name``, importing only the task folder module that registers it; an unknown
    name is a KeyError with the closest known one."""
    if name not in _ADAPTERS:
        _import_file(adapter_file(name, root))
    return _ADAPTERS[name]


def known_adapters(root: Path = TASK_FOLDERS) -> list[str]:
    """Every adapter name the task folders register (and any registered otherwise, e.g. by a test)."""
    return sorted(set(adapter_files(root)) | set(_ADAPTERS))


def folder_catalogue(roles: Iterable[str] | None = None, root: Path = TASK_FOLDERS) -> dict:
    """``{"tasks": ..., "datasets": ...}`` as the task folders declare them: the folders whose task's role is
    one of ``roles`` (every folder when None), with the datasets they declare (for tests and tools that read
    tasks outside a workflow run)."""
    merged: dict = {"tasks": {}, "datasets": {}}
    for name, folder in task_folders(root).items():
        content = load_yaml(folder / TASK_FILE)
        if roles is None or content["tasks"][name]["role"] in roles:
            merged["tasks"][name] = content["tasks"][name]
            merged["datasets"].update(content.get("datasets") or {})
    return merged
