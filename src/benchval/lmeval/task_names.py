"""A study's ``harness_task`` names must be tasks its lm-eval output holds: an unknown one (``hellaswagg``) used to
import with exit 0 and the study silently lost the task. :func:`harness_task_problems` names each unknown task
with the closest task names found in the results files; rule import_score_table's importers raise on it
(benchval.lmeval.importer, benchval.lmeval.results) and workflow/rules/common.smk checks it at planning
(:func:`check_harness_tasks`), for every lm_eval study whose folder already holds results files."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path

from benchval.plumbing.config_error import ConfigError


def harness_task_problems(study_name: str, study: dict, found: Iterable[str], where: Path) -> list[str]:
    """One line per task of ``study`` whose ``harness_task`` is not among ``found`` (the tasks of the results
    files under ``where``), with the closest found names."""
    found = sorted(set(found))
    problems = []
    for task, spec in study["tasks"].items():
        name = spec["harness_task"]
        if name in found:
            continue
        close = difflib.get_close_matches(name, found, n=3, cutoff=0.5)
        hint = f"closest: {', '.join(map(repr, close))}" if close else f"its tasks: {', '.join(found[:20]) or 'none'}"
        problems.append(
            f"studies.{study_name}.tasks.{task}.harness_task: {name!r} is in no results file under {where} ({hint})"
        )
    return problems


def results_tasks(directory: Path) -> set[str]:
    """Every task name under ``results`` of the lm-eval results JSON files below ``directory``."""
    from benchval.lmeval.output_files import discover_runs

    return {task for run in discover_runs(directory) for task in run.tasks}


def check_harness_tasks(studies: dict, expand: Callable[[str], Path]) -> None:
    """Planning: every lm_eval study whose folder holds results files names only tasks they hold."""
    problems = []
    for name, study in studies.items():
        if study.get("source") != "lm_eval":
            continue
        directory = expand(study["path"])
        found = results_tasks(directory) if directory.is_dir() else set()
        if found:  # a folder without results yet (being filled, a docs example) is left to the import job
            problems += harness_task_problems(name, study, found, directory)
    if problems:
        raise ConfigError("; ".join(problems))
