"""A default lives in the schema only: no ``mapping.get("key", default)`` in the package restates one.

The workflow fills every schema default into the config (:func:`benchval.plumbing.config.fill_defaults`),
so code reads ``settings["key"]``; a second default in the code drifts (``atlas.min_headline_n`` fell back
to ``min_models`` in the code, the schema says 20). The check finds every ``.get("<key>", <default>)``
whose key has a default in some workflow/schemas/*.yaml, and fails unless the call is listed below: either
a fallback that must stay (compared with the schema's default here), or a ``.get`` on something that is
not a config section (with what it reads)."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

from benchval.plumbing.folders import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "benchval"
SCHEMAS = REPO_ROOT / "workflow" / "schemas"

# Inside src/benchval/jobs/ while this check was written, which other work packages were moving (issue #41):
# (file name, key), so that a move leaves the entry valid; each to become a plain ``section["key"]``, then
# removed from this list.
JOBS_TO_CLEAR: set[tuple[str, str]] = set()  # restated defaults left for a change that reruns their jobs anyway

# Fallbacks that stay, with the schema file and property path whose default they must equal: a `models:`
# entry reaches these from tests and benchmarks too, not only through the filled config.
KEPT_FALLBACKS = {
    ("models/placement.py", "device"): ("models.schema.yaml", "$defs.model.properties.device"),
    ("models/placement.py", "dtype"): ("models.schema.yaml", "$defs.model.properties.dtype"),
    ("models/registry.py", "device"): ("models.schema.yaml", "$defs.model.properties.device"),
    ("models/registry.py", "dtype"): ("models.schema.yaml", "$defs.model.properties.dtype"),
    ("scoring/task_scoring.py", "device"): ("models.schema.yaml", "$defs.model.properties.device"),
    ("scoring/task_scoring.py", "dtype"): ("models.schema.yaml", "$defs.model.properties.dtype"),
    ("generation/systems.py", "device"): ("models.schema.yaml", "$defs.model.properties.device"),
    ("generation/systems.py", "dtype"): ("models.schema.yaml", "$defs.model.properties.dtype"),
}

# ``.get`` calls whose key only shares its name with a schema key: what they read instead.
NOT_CONFIG = {
    ("atlas/predictors.py", "criterion"): "a row of the predictor table",
    ("commonwhy/rules.py", "entities"): "an entry of the published CommonWhy rule files",
    ("items/study.py", "tasks"): "items.studies.<name>.criteria.tasks, which has no default (kind: atlas)",
    ("lmeval/importer.py", "normalisation"): "studies.<name>.samples, whose keys have no schema default",
    ("lmeval/steps/lmeval_scoreboard.py", "normalisation"): "studies.<name>.samples, whose keys have no schema default",
    ("lmeval/importer.py", "metrics"): "studies.<name>.samples, whose keys have no schema default",
    ("lmeval/importer.py", "seed"): "studies.<name>.samples, whose keys have no schema default",
    ("plumbing/config.py", "metrics"): "studies.<name>.samples, whose keys have no schema default",
    ("tasks/sizes.py", "tasks"): "the merged config or the tasks mapping itself (either is accepted)",
    (
        "cluster_planning/gpu_hours.py",
        "device",
    ): "the device a gpu_check JSON was measured on (benchmarks/gpu_check.py)",
    ("testing/tiny.py", "judge_check"): "the tiny test config this helper builds",
}


def keys_with_defaults(schema_dir: Path = SCHEMAS) -> set[str]:
    """Every property name that has a ``default`` somewhere in the schemas."""
    found = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            for name, spec in (node.get("properties") or {}).items():
                if isinstance(spec, dict) and "default" in spec:
                    found.add(name)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(schema_dir.glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def restated_defaults(source: str, keys: set[str]) -> list[tuple[str, int, ast.expr]]:
    """(key, line, default expression) of every ``<x>.get("<key>", <default>)`` with a key in ``keys`` and a
    default other than None."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"):
            continue
        if len(node.args) != 2 or not isinstance(node.args[0], ast.Constant) or node.args[0].value not in keys:
            continue
        default = node.args[1]
        if isinstance(default, ast.Constant) and default.value is None:
            continue
        found.append((node.args[0].value, node.lineno, default))
    return found


def schema_default(schema_file: str, path: str):
    node = yaml.safe_load((SCHEMAS / schema_file).read_text(encoding="utf-8"))
    for part in path.split("."):
        node = node[part]
    return node["default"]


def package_fallbacks() -> dict[tuple[str, str], list[tuple[str, int, ast.expr]]]:
    """(path under src/benchval, key) and (file name, key) -> (path, line, default) of each restated default."""
    keys = keys_with_defaults()
    found: dict[tuple[str, str], list[tuple[str, int, ast.expr]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        for key, line, default in restated_defaults(path.read_text(encoding="utf-8"), keys):
            found.setdefault((relative, key), []).append((relative, line, default))
    return found


def is_listed(place: tuple[str, str]) -> bool:
    relative, key = place
    return place in KEPT_FALLBACKS or place in NOT_CONFIG or (relative.rsplit("/", 1)[-1], key) in JOBS_TO_CLEAR


def test_the_check_finds_a_restated_default_and_passes_a_plain_read():
    source = 'a = settings.get("min_headline_n", settings["min_models"])\nb = s.get("seed", None)\nc = s["seed"]\n'
    found = restated_defaults(source, {"min_headline_n", "seed"})
    assert [(key, line) for key, line, _ in found] == [("min_headline_n", 1)]


def test_no_code_restates_a_schema_default():
    found = package_fallbacks()
    new = [
        f"src/benchval/{file}:{line}: .get({key!r}, ...)"
        for (file, key), calls in found.items()
        if not is_listed((file, key))
        for _, line, _ in calls
    ]
    assert not new, "read the key plainly (its schema default is filled in), or list it here:\n" + "\n".join(new)
    by_name = {(file.rsplit("/", 1)[-1], key) for file, key in found}
    stale = (set(KEPT_FALLBACKS) | set(NOT_CONFIG)) - set(found) | JOBS_TO_CLEAR - by_name
    assert not stale, f"no longer in the code, remove from the lists: {sorted(stale)}"


def test_the_fallbacks_that_stay_equal_the_schema_default():
    found = package_fallbacks()
    for place, (schema_file, path) in KEPT_FALLBACKS.items():
        expected = schema_default(schema_file, path)
        for _, line, default in found[place]:
            assert ast.literal_eval(default) == expected, f"src/benchval/{place[0]}:{line}: {place[1]} != {expected!r}"


def test_the_jobs_list_names_files_by_name_only():
    assert all("/" not in file for file, _ in JOBS_TO_CLEAR)
