"""Helpers the rule files use so that a rerun happens exactly when a result could change.

Snakemake reruns a job when the ``repr`` of one of its params changed, when its input paths
changed, or when an input is newer than its outputs. Three helpers keep that honest:

* :func:`canonical`: a param value with every mapping's keys sorted (recursively), so that
  reordering keys in a config file changes no ``repr`` and reruns nothing.
* :func:`code_digest`: the content hashes of the ``benchval`` modules a rule's script imports,
  transitively (found with :mod:`ast`, never by importing; a name imported from a package that exports it
  lazily, through ``__getattr__`` and a name -> module table, counts as an import of that module:
  :func:`lazy_exports`). A rule's param is :func:`code_param`, ``<script>@<16-hex digest>`` of them: it
  reruns the rule when any of that code changes and only then; content hashes, not paths, so moving the
  checkout reruns nothing. A dry run's "Params have changed" reason shows the two digests (a line of ~200
  characters, not the 3,900-10,600 of the whole table); ``python -m benchval.jobs.reruns changed BEFORE NOW``
  names the files that differ, from the record :func:`code_param` keeps of each digest.
* :func:`workdir_relative`: a path outside the package (the raw-data mirror, say) relative to
  the working directory, so that moving the checkout together with its data reruns nothing.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

PACKAGE = "benchval"
PACKAGE_DIR = Path(__file__).resolve().parents[1]  # src/benchval


def canonical(value: Any) -> Any:
    """``value`` with the keys of every mapping sorted, recursively (tuples become lists).

    Lists keep their order (it means something: models, tasks, formats); values are unchanged.
    """
    if isinstance(value, Mapping):
        return {str(key): canonical(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, Path):
        return str(value)
    return value


def _module_file(module: str, package_dir: Path) -> Path | None:
    """The file of ``benchval.x.y`` (module or package ``__init__``), or None if it is not one."""
    parts = module.split(".")[1:]
    base = package_dir.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _parents(module: str) -> list[str]:
    """``benchval.a.b`` -> [benchval, benchval.a, benchval.a.b]: importing runs every __init__."""
    parts = module.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _module_name(path: Path, package_dir: Path) -> str:
    relative = path.relative_to(package_dir).with_suffix("")
    parts = [PACKAGE, *relative.parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str | None = None) -> set[str]:
    """Names of the ``benchval`` modules ``source`` imports (anywhere, lazy imports included).

    ``module`` is the importing module's own name (to resolve relative imports); ``from a import b``
    yields both ``a`` and ``a.b`` (b may be a submodule; names that are not modules are dropped later).
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level and module:
                package = module.split(".")[: -node.level]
                base = ".".join([*package, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name == PACKAGE or name.startswith(PACKAGE + ".")}


def module_dependencies(script: str | Path, package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """Every package file that running ``script`` imports, transitively (sorted)."""
    return list(_dependencies(str(Path(script).resolve()), str(package_dir)))


@lru_cache(maxsize=None)
def _dependencies(script: str, package_dir_name: str) -> tuple[Path, ...]:
    package_dir = Path(package_dir_name)
    seen: dict[str, Path] = {}
    pending = sorted(imported_modules(Path(script).read_text()))
    while pending:
        name = pending.pop()
        for parent in _parents(name):
            if parent in seen:
                continue
            path = _module_file(parent, package_dir)
            if path is None:  # an attribute imported from a module (from benchval.x import function) ...
                pending.extend(_lazy_export(parent, package_dir))  # ... or from a package's lazy table
                continue
            seen[parent] = path
            pending.extend(_module_imports(path, _relative_anchor(path, _module_name(path, package_dir))))
    return tuple(sorted(seen.values()))


def lazy_exports(source: str) -> dict[str, str]:
    """{name: module} of a package entry that imports its names lazily (a module-level ``__getattr__`` reading a
    dict literal such as benchval.models' ``_EXPORTS = {"prepare_model": "benchval.models.prepare", ...}``):
    every module-level dict literal whose values are all ``benchval`` module names."""
    tree = ast.parse(source)
    if not any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__" for node in tree.body):
        return {}
    found: dict[str, str] = {}
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Dict):
            pairs = [(k.value, v.value) for k, v in zip(value.keys, value.values) if _strings(k, v)]
            if pairs and len(pairs) == len(value.keys) and all(v.startswith(PACKAGE + ".") for _, v in pairs):
                found.update(pairs)
    return found


def _strings(*nodes) -> bool:
    return all(isinstance(node, ast.Constant) and isinstance(node.value, str) for node in nodes)


def _lazy_export(name: str, package_dir: Path) -> list[str]:
    """The module behind ``<package>.<attribute>`` where the package exports the attribute lazily, else []."""
    package, _, attribute = name.rpartition(".")
    path = _module_file(package, package_dir) if package.startswith(PACKAGE) else None
    if path is None or path.name != "__init__.py":
        return []
    module = _package_lazy_exports(path).get(attribute)
    return [module] if module else []


@lru_cache(maxsize=None)
def _package_lazy_exports(path: Path) -> dict[str, str]:
    return lazy_exports(path.read_text())


@lru_cache(maxsize=None)
def _module_imports(path: Path, anchor: str) -> frozenset[str]:
    """The imported modules of one package file, parsed once per process: every rule's
    script shares most of its modules, and parsing them again for each of ~70 scripts made planning slow."""
    source = path.read_text()
    return frozenset(imported_modules(source, anchor))


def _relative_anchor(path: Path, name: str) -> str:
    """The name relative imports resolve against: a package's __init__ counts as inside itself."""
    return f"{name}.__init__" if path.name == "__init__.py" else name


@lru_cache(maxsize=None)
def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def code_digest(script: str | Path, package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """{file: sha256 prefix} of ``script`` and of every package module it imports, transitively.

    Keys are the script's file name and the modules' paths inside the package, so the digest does
    not depend on where the checkout lives. A rule's ``params: code=code_digest(script)`` reruns
    the rule after any change to that code, and leaves rules that do not import it alone.
    """
    script = Path(script).resolve()
    digest = {f"script:{script.name}": _file_hash(script)}
    for path in module_dependencies(script, package_dir):
        digest[str(path.relative_to(package_dir.parent))] = _file_hash(path)
    return dict(sorted(digest.items()))


#: where :func:`code_param` and :func:`settings_param` record what is behind each digest, in the working directory
CODE_RECORDS = Path(".snakemake") / "benchval" / "code"
#: a settings param whose ``repr`` is longer is shown as a digest (:func:`settings_param`)
LONGEST_SHOWN = 300


class Settings(dict):
    """A config section given to a job as a param (a dict to the job), whose ``repr``, which Snakemake records
    and a dry run's "Params have changed" reason prints, is ``settings@<16-hex digest>``: the whole section
    once made reasons of 9,587 characters (the ``analysis`` section of rule specification_robustness)."""

    def __repr__(self) -> str:
        return settings_label(self)


def settings_label(value: Mapping) -> str:
    return f"settings@{config_digest(value)}"


def settings_param(value: Any, records: Path | None = None) -> Any:
    """``value`` as is when its ``repr`` is short, else as :class:`Settings`, its content recorded as
    ``<records>/settings@<digest>.json`` for ``python -m benchval.jobs.reruns changed BEFORE NOW`` (which
    then names the changed keys and their values)."""
    if not isinstance(value, Mapping) or len(repr(value)) <= LONGEST_SHOWN:
        return value
    _record(settings_label(value), canonical(value), records)
    return Settings(value)


def _record(label: str, content: Any, records: Path | None) -> None:
    """``content`` as ``<records>/<label>.json``, once; left out where the folder cannot be written."""
    path = (records or CODE_RECORDS) / f"{label}.json"
    if path.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(content, indent=0, sort_keys=True, default=str))
        partial.replace(path)
    except OSError:
        pass


def code_param(files: Mapping[str, str], records: Path | None = None) -> str:
    """``<script>@<16-hex digest>`` of ``files`` (a :func:`code_digest`, whose ``script:<name>`` key names the
    script), the param a rule reruns on.

    The table itself is recorded as ``<records>/<script>@<digest>.json`` (default :data:`CODE_RECORDS` of the
    working directory), so that ``python -m benchval.jobs.reruns changed BEFORE NOW`` can list what changed
    between two params a dry run's reason shows. A record that cannot be written is left out (a read-only
    working directory plans as before; the command then says the digest was never recorded)."""
    script = next(key.split(":", 1)[1] for key in files if key.startswith("script:"))
    value = f"{script}@{config_digest(files)}"
    _record(value, dict(files), records)
    return value


def changed_code(before: str, now: str, records: Path | None = None) -> list[str]:
    """``changed: <file or key>`` / ``added: ...`` / ``removed: ...`` lines between two :func:`code_param` or
    :func:`settings_param` labels (sorted; a setting with its values). A label never recorded here is a
    :class:`LookupError` naming it."""
    tables = []
    for value in (before, now):
        path = (records or CODE_RECORDS) / f"{value}.json"
        if not path.is_file():
            raise LookupError(f"no record of {value} in {path.parent} (planned in another working directory?)")
        tables.append(_flat(json.loads(path.read_text())))
    old, new = tables
    with_values = before.startswith("settings@")

    def shown(key: str, table: Mapping) -> str:
        return f" {json.dumps(table[key], default=str)[:200]}" if with_values else ""

    return (
        [
            f"changed: {k}{shown(k, old)}{' ->' if with_values else ''}{shown(k, new)}"
            for k in sorted(old.keys() & new.keys())
            if old[k] != new[k]
        ]
        + [f"added: {k}{shown(k, new)}" for k in sorted(new.keys() - old.keys())]
        + [f"removed: {k}{shown(k, old)}" for k in sorted(old.keys() - new.keys())]
    )


def _flat(value: Any, where: str = "") -> dict[str, Any]:
    """{dotted key: value} of a nested mapping (a code table is flat already)."""
    if not isinstance(value, Mapping):
        return {where: value}
    flat = {}
    for key, item in value.items():
        name = f"{where}.{key}" if where else str(key)
        flat.update(_flat(item, name) if isinstance(item, Mapping) and item else {name: item})
    return flat


def config_digest(value: Any) -> str:
    """A short content hash of a config (or section), its key order ignored: the param of a rule that reads the
    whole config (rule report_config). A dry run's "Params have changed" reason prints a param's old and new
    value, so the whole config as a param made lines of 100,000 characters; a digest makes 16."""
    text = json.dumps(canonical(value), sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def file_digests(paths, root: str | Path) -> dict[str, str]:
    """{path relative to ``root``: sha256 prefix} of repository files a rule reads (config/atlas/...,
    committed tables). A rule takes them as ``ancient()`` inputs plus these digests as a param: an edit
    reruns it (params trigger), a fresh clone's new modification times do not (docs/workflow.md)."""
    root = Path(root).resolve()
    digests = {}
    for path in map(Path, paths):
        resolved = path.resolve()
        name = resolved.relative_to(root).as_posix() if resolved.is_relative_to(root) else path.name
        digests[name] = hashlib.sha256(resolved.read_bytes()).hexdigest()[:16]
    return dict(sorted(digests.items()))


def workdir_relative(path: str | Path | None, workdir: str | Path | None = None) -> str | None:
    """``path`` relative to the working directory (Snakemake's ``--directory``); None stays None."""
    if path is None:
        return None
    return os.path.relpath(Path(path).resolve(), Path(workdir or os.getcwd()).resolve())


def script_code_for(rules_dir) -> Callable[[str], str]:
    """``script_code(name)`` for the rule files in ``rules_dir`` (``workflow.current_basedir``):
    :func:`code_param` of the :func:`code_digest` of ``<rules_dir>/../scripts/<name>``."""
    scripts = Path(str(rules_dir)).parent / "scripts"

    def script_code(name: str) -> str:
        return code_param(code_digest(scripts / name))

    return script_code


METADATA = Path(".snakemake") / "metadata"


def migrated_params(params: list[str]) -> list[str]:
    """A job's recorded params (Snakemake's ``repr`` of each) with every code table of the former format (a
    dict holding a ``script:<name>`` key) replaced by its :func:`code_param`, which records it, and every
    config section the workflow now gives as :class:`Settings` with the same content (recorded by a dry
    run of the new code: run one first) replaced by its digest."""
    migrated = []
    for param in params:
        try:
            value = ast.literal_eval(param) if param.startswith("{'") else None
        except (ValueError, SyntaxError):
            value = None
        is_table = isinstance(value, dict) and any(str(key).startswith("script:") for key in value)
        if is_table:
            migrated.append(repr(code_param(value)))
        elif isinstance(value, dict) and (CODE_RECORDS / f"{settings_label(value)}.json").is_file():
            migrated.append(repr(Settings(value)))  # a section the workflow gives as Settings now, unchanged
        else:
            migrated.append(param)
    return migrated


def migrate_code_params(metadata: Path = METADATA) -> int:
    """Rewrite the params recorded for a finished run (``.snakemake/metadata/``, Snakemake's file store: one
    JSON record per output, ``params`` a JSON list of ``repr`` strings) to the short forms
    (:func:`migrated_params`). A job whose code and settings are unchanged since it ran then plans nothing;
    one whose code or settings changed reruns as before. Returns how many records changed. Run
    ``snakemake -n`` with the new code first (it records the settings), then this, then plan as usual."""
    changed = 0
    for path in sorted(metadata.iterdir()) if metadata.is_dir() else []:
        record = json.loads(path.read_text())
        stored = record.get("params")
        params = json.loads(stored) if isinstance(stored, str) else stored
        if not params:
            continue
        migrated = migrated_params(params)
        if migrated != params:
            record["params"] = json.dumps(migrated) if isinstance(stored, str) else migrated
            path.write_text(json.dumps(record))
            changed += 1
    return changed


def main(argv: list[str] | None = None) -> int:
    """``python -m benchval.jobs.reruns changed BEFORE NOW``: the files whose code differs between two
    ``code`` params of a dry run's "Params have changed" reason; ``python -m benchval.jobs.reruns migrate``:
    a finished run's recorded code params to the short form (:func:`migrate_code_params`). Run in the
    working directory."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m benchval.jobs.reruns", description=main.__doc__)
    parser.add_argument("command", choices=["changed", "migrate"])
    parser.add_argument("before", nargs="?", help="changed: the param before, <script>@<digest>")
    parser.add_argument("now", nargs="?", help="changed: the param now, <script>@<digest>")
    arguments = parser.parse_args(argv)
    if arguments.command == "migrate":
        print(f"{migrate_code_params()} metadata records: code params in the short form")
        return 0
    if not (arguments.before and arguments.now):
        parser.error("changed needs BEFORE and NOW")
    try:
        lines = changed_code(arguments.before, arguments.now)
    except LookupError as error:
        print(f"benchval.jobs.reruns: {error}", file=sys.stderr)
        return 1
    print("\n".join(lines) if lines else "no file differs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
