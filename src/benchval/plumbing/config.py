"""Start-up checks on the merged configuration that a JSON schema cannot express.

``workflow/rules/common.smk`` calls :func:`check_command_line` and :func:`check_sections_are_mappings`
before the schema validation (so a mapping typed on the command line gets the remedy, not a type
error) and :func:`check_references` after it. (Where the raw-data mirror is: benchval.plumbing.folders.)
docs/configuration.md ("Start-up errors") lists every message and what to do about it.
"""

from __future__ import annotations

import copy
import difflib
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Mapping
from urllib.parse import urljoin, urlparse
from urllib.request import url2pathname

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from benchval.plumbing.folders import REPO_ROOT, TASK_FOLDERS
from benchval.plumbing.config_error import ConfigError, unknown_name

#: metrics a ``samples:`` lm_eval study recomputes unless ``samples.metrics`` says otherwise (studies.schema.yaml);
#: here, on the ground floor, because the start-up checks need it (benchval.lmeval.importer reads it from here)
DEFAULT_SAMPLE_METRICS = ("accuracy", "macro_f1")

SCHEMA_DIR = REPO_ROOT / "workflow" / "schemas"


@lru_cache(maxsize=1)
def _mapping_sections() -> tuple[str, ...]:
    """Top-level keys whose schema is an object (followed through each section's ``$ref`` file)."""
    top = yaml.safe_load((SCHEMA_DIR / "config.schema.yaml").read_text(encoding="utf-8"))
    sections = []
    for key, spec in top["properties"].items():
        if "$ref" in spec:
            spec = yaml.safe_load((SCHEMA_DIR / spec["$ref"]).read_text(encoding="utf-8"))
        if spec.get("type") == "object":
            sections.append(key)
    return tuple(sections)


_CONFIGFILE_REMEDY = (
    "write the keys you change in a small YAML file (e.g. override.yaml) and pass it with "
    "--configfile override.yaml: it is merged key by key into config/config.yaml "
    "(docs/configuration.md, 'Overriding nested keys')"
)


def check_command_line(overrides: Mapping) -> None:
    """What ``--config key=value`` gave (Snakemake's ``workflow.config_settings.config``).

    Snakemake reads a nested value there as YAML with every leaf as text (``{n_items: 8}`` gives
    ``{'n_items': '8'}``) and ``null`` as the text ``'null'``; both would fail later with a type error or
    a folder called ``null``. Say so, with the remedy.
    """
    for key, value in overrides.items():
        if isinstance(value, Mapping):
            raise ConfigError(
                f"{key}: a nested mapping given with --config ({key}={dict(value)!r}); --config reads "
                f"every nested value as text, so numbers and null do not survive. Instead, " + _CONFIGFILE_REMEDY
            )
        if value == "null":
            raise ConfigError(
                f"{key}: --config {key}=null gives the text 'null', not null. Instead, put "
                f"`{key}: null` in a small YAML file and pass it with --configfile"
            )


@lru_cache(maxsize=1)
def _top_level_keys() -> tuple[str, ...]:
    top = yaml.safe_load((SCHEMA_DIR / "config.schema.yaml").read_text(encoding="utf-8"))
    return tuple(top["properties"])


def check_top_level_keys(config: Mapping) -> None:
    """A key the schema does not know (``--config seeed=3``, a typo in a --configfile) in one line with the
    closest key; schema validation would answer with the whole schema (tens of kilobytes)."""
    known = _top_level_keys()
    for key in config:
        if key not in known:
            closest = difflib.get_close_matches(str(key), known, n=1)
            hint = f"closest: {closest[0]!r}" if closest else f"the keys: {', '.join(known)}"
            raise ConfigError(
                f"{key}: not a config key ({hint}); fix it on the command line (--config) or in the "
                "--configfile that sets it (docs/configuration.md)"
            )


def check_sections_are_mappings(config: Mapping) -> None:
    """A section that must be a mapping but is a string (e.g. ``--config sample='{n_items: 8'``)."""
    for key in _mapping_sections():
        value = config.get(key)
        if isinstance(value, str):
            raise ConfigError(
                f"{key}: expected a mapping, got a string ({value!r}); a nested section cannot be "
                f"given as text on the command line. Instead, " + _CONFIGFILE_REMEDY
            )


#: where each kind of name is declared: the registry that an unknown name's message names
_REGISTRIES = {
    "task": "the tasks: one folder each, src/benchval/tasks/catalogue/<task>/, or a --configfile's tasks:",
    "model": "the config's models:",
    "dataset": "the datasets: of the task folders and config/catalogue/",
    "metric": "the metrics the studies' score tables hold",
}


def _unknown(kind: str, where: str, name: str, known, registry: str | None = None) -> ConfigError:
    """``WHERE: unknown KIND 'name'; did you mean 'closest'? (REGISTRY: the known names)``."""
    return ConfigError(f"{where}: " + unknown_name(kind, name, known, registry or _REGISTRIES[kind]))


def _check_study(study: str, spec: dict, models: dict, tasks: dict) -> None:
    for key, known in (("models", models), ("tasks", tasks)):
        for name, times in Counter(spec[key]).items():
            if times > 1:
                raise ConfigError(f"studies.{study}.{key}: {name!r} is listed {times} times; list each once")
        for name in spec[key]:
            if name not in known:
                raise _unknown(key[:-1], f"studies.{study}.{key}", name, known)


def _study_metrics(config: dict) -> set[str]:
    """Every metric some study's score table can hold (scored: the tasks' metrics; imported: declared)."""
    metrics: set[str] = set()
    for spec in config["studies"].values():
        if spec["source"] == "scored":
            metrics.update(m for task in spec["tasks"] for m in config["tasks"][task]["metrics"])
            if spec.get("commonwhy_criterion"):
                metrics.add(
                    "accuracy"
                )  # the CommonWhy criterion rows enter as accuracy (benchval.evaluation.score_table)
        elif spec["source"] == "csv":
            metrics.add(spec.get("metric", "accuracy"))
            metrics.update(task.get("metric", spec.get("metric", "accuracy")) for task in spec["tasks"].values())
        elif "samples" in spec:  # lm_eval recomputed item by item (benchval.lmeval.importer)
            default = spec["samples"].get("metrics", DEFAULT_SAMPLE_METRICS)
            metrics.update(m for task in spec["tasks"].values() for m in (task.get("metrics") or default))
        else:
            metrics.update(m for task in spec["tasks"].values() for m in task["metrics"])
    return metrics


def _check_metrics(config: dict) -> None:
    """analysis.metrics must be metrics some study produces (tasks' metrics: an enum in tasks.schema.yaml)."""
    wanted = (config.get("analysis") or {}).get("metrics") or []
    produced = _study_metrics(config)
    for metric in wanted:
        if metric not in produced:
            raise _unknown("metric", "analysis.metrics", metric, produced)


def check_references(config: dict) -> None:
    """Names that must refer to something declared do: study models and tasks (each listed once),
    task datasets and pairs (imported studies' pairs too), ``sample.per_task`` keys, the control
    composite's tasks, analysis metrics."""
    models, tasks, datasets = config["models"], config["tasks"], config["datasets"]
    for study, spec in config["studies"].items():
        if spec["source"] == "scored":
            _check_study(study, spec, models, tasks)
    for task, spec in tasks.items():
        if spec.get("dataset") is not None and spec["dataset"] not in datasets:
            raise _unknown("dataset", f"tasks.{task}.dataset", spec["dataset"], datasets)
        partner = spec.get("pairs_with")
        if partner is not None and partner not in tasks:
            raise _unknown("task", f"tasks.{task}.pairs_with", partner, tasks)
    for task in (config.get("sample") or {}).get("per_task") or {}:
        if task not in tasks:
            raise _unknown("task", f"sample.per_task.{task}", task, tasks)
    _check_imported_pairs(config)
    _check_composite_tasks(config)
    _check_metrics(config)


def _check_imported_pairs(config: dict) -> None:
    """An imported study's ``pairs_with`` names one of that study's tasks."""
    for study, spec in config["studies"].items():
        if spec["source"] == "scored":
            continue
        for task, task_spec in spec["tasks"].items():
            partner = task_spec.get("pairs_with")
            if partner and partner not in spec["tasks"]:
                raise _unknown(
                    "task", f"studies.{study}.tasks.{task}.pairs_with", partner, spec["tasks"], f"studies.{study}.tasks"
                )


def _check_composite_tasks(config: dict) -> None:
    """``analysis.control_composite.tasks`` names tasks some study has (scored: the catalogue's)."""
    known = set(config["tasks"])
    for spec in config["studies"].values():
        if spec["source"] != "scored":
            known.update(spec["tasks"])
    composite = (config.get("analysis") or {}).get("control_composite") or {}
    for task in composite.get("tasks") or ():
        if task not in known:
            raise _unknown(
                "task", "analysis.control_composite.tasks", task, known, "the task folders' and imported studies' tasks"
            )


# ---- defaults: written in the schemas only, filled here ------------------------------------------


def _schema_uri(name: str) -> str:
    return (SCHEMA_DIR / name).as_uri()


@lru_cache(maxsize=None)  # the registry is immutable: without the cache every $ref lookup re-reads its file
def _retrieve(uri: str) -> Resource:
    path = Path(url2pathname(urlparse(uri).path))
    return Resource.from_contents(yaml.safe_load(path.read_text(encoding="utf-8")), default_specification=DRAFT202012)


@lru_cache(maxsize=1)
def _registry() -> Registry:
    return Registry(retrieve=_retrieve)


def _lookup(ref: str, base: str) -> tuple[dict, str]:
    """The schema ``ref`` points to, seen from a schema at ``base``, and its own full address."""
    address = urljoin(base, ref)
    return _registry().resolver().lookup(address).contents, address


def _matches(branch: Mapping, base: str, instance) -> bool:
    """Whether ``instance`` is valid against a ``oneOf``/``anyOf`` branch (references resolved from ``base``)."""
    ref = branch.get("$ref")
    schema = {"$ref": urljoin(base, ref)} if ref else branch
    return Draft202012Validator(schema, registry=_registry()).is_valid(instance)


def _fill(instance, schema: Mapping, base: str) -> None:
    """Set every missing property that has a ``default`` in ``schema``, at every depth, in place.

    Follows ``$ref`` (also into the section files), ``allOf``, and of ``oneOf``/``anyOf`` the first
    branch the instance matches (so a study gets its own kind's defaults only). Defaults are copied:
    two entries never share one default object.
    """
    if "$ref" in schema:
        target, address = _lookup(schema["$ref"], base)
        _fill(instance, target, address.split("#")[0])
    for branch in schema.get("allOf", ()):
        _fill(instance, branch, base)
    for key in ("oneOf", "anyOf"):
        chosen = next((b for b in schema.get(key, ()) if _matches(b, base, instance)), None)
        if chosen is not None:
            _fill(instance, chosen, base)
    if isinstance(instance, dict):
        _fill_object(instance, schema, base)
    elif isinstance(instance, list) and isinstance(schema.get("items"), Mapping):
        for item in instance:
            _fill(item, schema["items"], base)


_NO_DEFAULT = object()


def _default(spec: Mapping, base: str):
    """The ``default`` of a property, looked up through ``$ref`` when the property only refers."""
    if "default" in spec:
        return spec["default"]
    if "$ref" in spec:
        target, address = _lookup(spec["$ref"], base)
        return _default(target, address.split("#")[0])
    return _NO_DEFAULT


def _fill_object(instance: dict, schema: Mapping, base: str) -> None:
    properties = schema.get("properties", {})
    for name, spec in properties.items():
        if name not in instance:
            default = _default(spec, base)
            if default is not _NO_DEFAULT:
                instance[name] = copy.deepcopy(default)
    extra = schema.get("additionalProperties")
    for name, value in instance.items():
        if name in properties:
            _fill(value, properties[name], base)
        elif isinstance(extra, Mapping):
            _fill(value, extra, base)


def fill_defaults(config: dict) -> dict:
    """Fill ``config`` in place with every default of workflow/schemas/ (nested ones too) and return it.

    Snakemake's validate() fills top-level defaults only (it does not follow ``$ref`` into the
    section files); benchval.jobs.layout.workflow_layout calls this once per config (common.smk: right
    after validate()), so that rules and scripts read every setting from the config and no code
    restates a default.
    """
    _fill(config, {"$ref": "config.schema.yaml"}, _schema_uri("config.schema.yaml"))
    return config


def section_defaults(section: str, values: Mapping | None = None) -> dict:
    """The config section ``section`` (e.g. ``"scoring"``) with its schema defaults filled in: ``values`` as
    given, plus every default missing. For code that may get a section without its defaults (benchmarks,
    tests, and the library places docs/configuration.md lists); a section :func:`fill_defaults` has
    filled comes back unchanged."""
    spec = yaml.safe_load((SCHEMA_DIR / "config.schema.yaml").read_text(encoding="utf-8"))["properties"][section]
    filled = copy.deepcopy(dict(values or {}))
    _fill(filled, spec, _schema_uri("config.schema.yaml"))
    return filled


def _property(schema: Mapping, base: str, key: str) -> tuple[Mapping, str]:
    """The schema of property ``key`` (through ``$ref`` and ``additionalProperties``: the schema of
    each entry of a name -> entry mapping such as ``tasks``) and the address it was found at."""
    if "$ref" in schema:
        schema, address = _lookup(schema["$ref"], base)
        base = address.split("#")[0]
    if key in schema.get("properties", {}):
        return schema["properties"][key], base
    extra = schema.get("additionalProperties")
    if isinstance(extra, Mapping):
        return _property(extra, base, key)
    raise KeyError(f"schema has no property {key!r}")


def allowed_values(section: str, *keys: str) -> list:
    """The ``enum`` of ``<section>.<key>...`` in its schema (e.g. ``allowed_values("scoring", "normalisation")``,
    ``allowed_values("tasks", "role")`` for every task's role; an array's items' enum for an array):
    code that must name the allowed values reads them here instead of writing them again."""
    spec = yaml.safe_load((SCHEMA_DIR / "config.schema.yaml").read_text(encoding="utf-8"))["properties"][section]
    base = _schema_uri("config.schema.yaml")
    for key in keys:
        spec, base = _property(spec, base, key)
    return list(spec["enum"] if "enum" in spec else spec["items"]["enum"])


def merged_config(*overlays: Path | str) -> dict:
    """config/config.yaml, then the catalogue (:func:`catalogue_files`), then ``overlays`` in order,
    merged as snakemake merges ``--configfile config/config.yaml <overlays>`` (for tools and tests
    that read the config outside a workflow run: the cost estimate, the rehearsal)."""
    from snakemake.utils import update_config  # noqa: PLC0415  (only these callers need snakemake)

    config = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    for catalogue in catalogue_files(REPO_ROOT / "config" / "catalogue"):
        update_config(config, yaml.safe_load(catalogue.read_text()))
    for overlay in overlays:
        update_config(config, yaml.safe_load(Path(overlay).read_text()) or {})
    return config


def _merged(base: dict, over: Mapping) -> dict:
    """``base`` with ``over`` merged in key by key (nested mappings merged, other values replaced)."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merged(dict(merged[key]), value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def task_files(task_folders: Path = TASK_FOLDERS) -> list[Path]:
    """Every task folder's catalogue entry (``<task_folders>/<task>/task.yaml``), in name order."""
    return sorted(Path(task_folders).glob("*/task.yaml"))


def catalogue_files(folder: Path, task_folders: Path = TASK_FOLDERS) -> list[Path]:
    """The catalogue's YAML files: every task folder's task.yaml (src/benchval/tasks/catalogue/<task>/),
    then config/catalogue/*.yaml, each in name order; a missing folder is an error, and so is a task.yaml
    that declares another task than its folder's or a dataset another catalogue file declares too."""
    tasks, files = task_files(task_folders), sorted(Path(folder).glob("*.yaml"))
    if not files:
        raise ConfigError(f"catalogue: no *.yaml in {folder} (config/catalogue/: paper_n_deviations, raw_sources)")
    if not tasks:
        raise ConfigError(f"catalogue: no <task>/task.yaml in {task_folders} (the task folders)")
    declared: dict[str, Path] = {}
    for path in [*tasks, *files]:
        content = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if path in tasks and list(content.get("tasks") or {}) != [path.parent.name]:
            raise ConfigError(
                f"{path}: a task folder's task.yaml declares exactly its own task under `tasks:` "
                f"({path.parent.name!r}), found {sorted(content.get('tasks') or {})}"
            )
        for dataset in content.get("datasets") or {}:
            if dataset in declared:
                raise ConfigError(
                    f"{path}: datasets.{dataset} is declared in {declared[dataset]} too; declare it once "
                    "(another task names it with `dataset:`)"
                )
            declared[dataset] = path
    return [*tasks, *files]


def merge_catalogue_under(config: dict, files: list[Path]) -> None:
    """Merge the catalogue ``files`` into ``config`` in place, the config's own values winning.

    For the workflow deployed as a Snakemake module: Snakemake skips a module's configfile directives
    (the deploying workflow passes its config), so the Snakefile merges the catalogue here; what the
    deploying workflow's config sets (a task of its own, a changed dataset) wins over the catalogue."""
    catalogue: dict = {}
    for path in files:
        catalogue = _merged(catalogue, yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {})
    merged = _merged(catalogue, config)
    config.clear()
    config.update(merged)


def merge_catalogue_over(workflow, files: list[Path]) -> None:
    """Merge the catalogue ``files`` into the workflow's config as Snakemake's ``configfile`` directive
    would (each file over the config, then the command line's ``--config``/``--configfile`` values over
    that), without its log line per file ("Config file ... is extended by additional config specified via
    the command line": 25 lines before every run given a ``--configfile``)."""
    from snakemake.common.configfile import load_configfile
    from snakemake.utils import update_config

    for path in files:
        workflow.configfiles.append(str(path))
        update_config(workflow.config, load_configfile(str(path)))
    if workflow.config_settings.overwrite_config:
        update_config(workflow.config, workflow.config_settings.overwrite_config)
