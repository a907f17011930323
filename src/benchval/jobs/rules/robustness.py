"""Functions of workflow/rules/robustness.smk: what a study's robustness rules read."""

from __future__ import annotations

from collections.abc import Callable

from benchval.jobs.layout import SCORES, TASK_ITEMS, TASK_META, Layout, fill
from benchval.jobs.reruns import canonical, workdir_relative


def item_level_pairs(layout: Layout, study: str) -> list[list[str]]:
    """(model, task) pairs whose stored scores a scored study's robustness rules read; none if imported."""
    if study not in layout.scored_studies:
        return []
    return [[model, task] for model in layout.study_models(study) for task in layout.study_tasks(study)]


def item_level_inputs(layout: Layout, study: str) -> dict[str, list[str]]:
    """The item files, task metas and stored scores of the study's pairs (item_level_pairs)."""
    pairs = item_level_pairs(layout, study)
    tasks = sorted({task for _, task in pairs})
    return {
        "task_items": [fill(TASK_ITEMS, task=t) for t in tasks],
        "metas": [fill(TASK_META, task=t) for t in tasks],
        "scores": [fill(SCORES, model=m, task=t) for m, t in pairs],
    }


def declared_item_counts(layout: Layout, study: str) -> dict:
    """Imported studies: task -> the `n_items` its entry declares (tasks without one are reported)."""
    tasks = layout.studies[study].get("tasks")
    if not isinstance(tasks, dict):
        return {}
    return {task: spec["n_items"] for task, spec in tasks.items() if "n_items" in spec}


def lmeval_samples_study(layout: Layout, study: str) -> object:
    """An lm_eval study read item by item (`samples:`): its study entry and the mirror, for reliability
    from its samples files; None otherwise."""
    spec = layout.studies[study]
    if spec.get("source") != "lm_eval" or "samples" not in spec:
        return None
    return canonical({"study": spec, "mirror": workdir_relative(layout.mirror)})


def lmeval_samples_folder(layout: Layout) -> Callable:
    """The input function of the samples study's lm-eval output folder, so that new runs rerun its
    reliability (none for another study)."""

    def folder(wildcards) -> list[str]:
        from benchval.analysis.study_import import expand_path

        if lmeval_samples_study(layout, wildcards.study) is None:
            return []
        return [workdir_relative(expand_path(layout.studies[wildcards.study]["path"], layout.mirror))]

    return folder


def normalisation(layout: Layout, config_provider: Callable, study: str) -> object:
    """The scored study's normalisation (imported studies have none)."""
    return config_provider("scoring.normalisation") if study in layout.scored_studies else None
