"""Sensitivity variants of a reworked benchmark: one generated task per value of one adapter option.

A catalogue task may declare ``variants: {option: perturbations, values: [goal_Leet, ...]}``
(PIQA-RUP does, one value per RUPBench perturbation). :func:`add_task_variants` then adds to the
config one task per value, named ``<task>__<value>`` (:data:`SEPARATOR`): a copy of the task with
role ``cs_variant``, the same ``pairs_with`` (its original), ``options.<option> = [value]`` and no
``paper_n`` (a task with ``exclude_ids`` cannot have variants: their item ids differ). A scored
study with ``sensitivity_variants: true`` also lists the variants of its
tasks, so they are built, scored and analysed (benchval.analysis.revisions.variant_sensitivity);
other studies do not score them. The workflow calls :func:`add_task_variants` right after
validating the config (workflow/rules/common.smk).
"""

from __future__ import annotations

import copy
from typing import Mapping

from benchval.plumbing.config_error import ConfigError

SEPARATOR = "__"
VARIANT_ROLE = "cs_variant"


def variant_name(task: str, value: str) -> str:
    return f"{task}{SEPARATOR}{value}"


def split_variant_name(name: str) -> tuple[str, str]:
    """(the reworked task, the value) of a variant's name; ValueError if it is not one."""
    task, separator, value = name.partition(SEPARATOR)
    if not separator or not task or not value:
        raise ValueError(f"{name!r} is not a variant name '<task>{SEPARATOR}<value>'")
    return task, value


def variant_specs(task: str, spec: Mapping[str, object]) -> dict[str, dict]:
    """{variant name: task spec} of one catalogue task's ``variants`` ({} when it declares none)."""
    declared = spec.get("variants")
    if not declared:
        return {}
    if spec.get("role") != "cs_reworked":
        raise ConfigError(
            f"tasks.{task}.variants: only a cs_reworked task can have variants (role {spec.get('role')!r})"
        )
    if spec.get("exclude_ids"):
        raise ConfigError(f"tasks.{task}.variants: not supported with exclude_ids (each variant's item ids differ)")
    option = declared["option"]
    base = {key: copy.deepcopy(value) for key, value in spec.items() if key != "variants"}
    variants = {}
    for value in declared["values"]:
        options = dict(base.get("options") or {}, **{option: [value]})
        label = f"{spec.get('label') or task} [{value}]"
        variants[variant_name(task, value)] = dict(base, role=VARIANT_ROLE, options=options, label=label, paper_n=None)
    return variants


def add_task_variants(config: dict) -> dict:
    """Add every declared variant to ``config["tasks"]`` and, for each scored study with
    ``sensitivity_variants: true``, the variants of its tasks to its task list (in place; returned)."""
    tasks = config["tasks"]
    generated: dict[str, list[str]] = {}
    for task, spec in list(tasks.items()):
        for name, variant in variant_specs(task, spec).items():
            if name in tasks and tasks[name] != variant:
                raise ConfigError(f"tasks.{name}: declared by hand, but it is also a generated variant of tasks.{task}")
            tasks[name] = variant
            generated.setdefault(task, []).append(name)
    for study, spec in config["studies"].items():
        if spec.get("source") != "scored" or not spec.get("sensitivity_variants", False):
            continue
        listed = list(spec["tasks"])
        extra = [name for task in listed for name in generated.get(task, []) if name not in listed]
        if not any(task in generated for task in listed):
            raise ConfigError(
                f"studies.{study}.sensitivity_variants: none of the study's tasks declares variants "
                f"(tasks with variants: {sorted(generated)})"
            )
        spec["tasks"] = listed + extra
    return config
