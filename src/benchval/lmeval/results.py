"""A ``source: lm_eval`` study -> its tidy score table and task table (docs/configuration.md, "lm-eval studies").

Without ``samples:``, the scores are read from a directory of lm-evaluation-harness results JSON files
(``{"results": {task: {"acc,none": x, ...}}, "config": {"model_args": ...}}``). ``models`` maps the
``model_key`` value of ``model_args`` (default ``pretrained``) to name/family/size_b; ``tasks`` maps each
task to its ``harness_task`` and a ``metrics`` mapping {our metric name: harness key, e.g.
``accuracy: "acc,none"``}. With ``samples:``, the study is recomputed item by item from the samples files
(:mod:`benchval.lmeval.importer`). Every dropped file is reported (log) with the reason.
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import pandas as pd

from benchval.analysis.importers import check_values
from benchval.analysis.study_import import StudyImportError, expand_path, task_table
from benchval.analysis.study_table import SCORE_COLUMNS
from benchval.lmeval.task_names import harness_task_problems
from benchval.lmeval.importer import import_lm_eval_samples
from benchval.lmeval.provenance import family_of, model_names, read_provenance, size_of

log = logging.getLogger(__name__)


def _model_args(config: dict | str | None) -> dict:
    """``model_args`` as a dict (lm-eval writes either ``"k=v,k=v"`` or a dict)."""
    if isinstance(config, dict):
        return config
    if not config:
        return {}
    pairs = [item.split("=", 1) for item in str(config).split(",") if "=" in item]
    return {key.strip(): value.strip() for key, value in pairs}


def _result_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*.json") if p.is_file())


def import_lm_eval(study_name: str, study: dict, mirror: str | Path | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(score_table, tasks) frames from a directory of lm-evaluation-harness results JSON files.

    When several files of one folder hold the same (model, task, metric), the file sorted last
    (lm-eval names files ``results_<timestamp>.json``) wins; the override is reported. One model in
    two result folders is an error naming both. The size comes from the run's
    ``config.model_num_parameters`` (the mapping's ``size_b`` only where the run has none); a value
    that is not a number (``"N/A"``, a boolean) is an error naming file and key, a null or NaN value
    is missing and counted. A study with ``samples:`` is recomputed item by item from the samples
    files instead (:mod:`benchval.lmeval.importer`).
    """
    if "samples" in study:
        return import_lm_eval_samples(study_name, study, mirror)
    directory = expand_path(study["path"], mirror)
    if not directory.is_dir():
        raise StudyImportError(f"study {study_name!r}: lm-eval results directory {directory} not found")
    names = model_names(study_name, study["models"])
    files = _result_files(directory)
    records: dict[tuple, dict] = {}
    skipped: dict[str, int] = {}
    seen_tasks: set[str] = set()
    for path in files:
        payload = _results_payload(path)
        if payload is None:
            _count(skipped, "no 'results' key (not a results file)")
            continue
        seen_tasks.update(payload["results"])
        _add_file_records(records, skipped, path, payload, study_name, study, names)
    problems = harness_task_problems(study_name, study, seen_tasks, directory)
    if problems:
        raise StudyImportError("; ".join(problems))
    log.info(
        "%s: %d JSON files -> %d used; skipped: %s",
        directory,
        len(files),
        len({r["file"] for r in records.values()}),
        skipped or "none",
    )
    if not records:
        raise StudyImportError(
            f"study {study_name!r}: no scores found in {directory} ({len(files)} JSON files; skipped: {skipped})"
        )
    scores = pd.DataFrame.from_records(list(records.values()))[list(SCORE_COLUMNS)]
    for task in study["tasks"]:
        log.info(
            "%s: task %s: %d models with scores", directory, task, scores.loc[scores.task == task, "model"].nunique()
        )
    check_values(scores, f"study {study_name!r} ({directory})")
    return scores, task_table(study["tasks"])


def _count(skipped: dict[str, int], reason: str) -> None:
    skipped[reason] = skipped.get(reason, 0) + 1


def _results_payload(path: Path) -> dict | None:
    """The parsed results JSON file; None for a JSON file that is not a results file."""
    try:
        payload = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise StudyImportError(f"{path}: not valid JSON ({error})") from error
    if not isinstance(payload, dict) or "results" not in payload:
        return None
    return payload


def _add_file_records(
    records: dict, skipped: dict, path: Path, payload: dict, study_name: str, study: dict, names: dict[str, str]
) -> None:
    """Add the study's (model, task, metric) values of one results file to ``records`` (a later file of one
    folder overrides an earlier one); count what is left out in ``skipped``. ``names``: source model -> the
    cleaned name it is written under (benchval.lmeval.provenance.model_names)."""
    model_key = study.get("model_key", "pretrained")
    source_model = _model_args((payload.get("config") or {}).get("model_args")).get(model_key)
    if source_model not in study["models"]:
        _count(skipped, f"model_args {model_key}={source_model!r} not in the study's models mapping")
        return
    model = study["models"][source_model]
    where = f"studies.{study_name}.models.{source_model}"
    size_b = size_of(read_provenance(payload, model_key, path), model, where)
    family = family_of(source_model, model, where, study.get("family_rules"))
    for task, spec in study["tasks"].items():
        result = payload["results"].get(spec["harness_task"])
        if result is None:
            continue
        for metric, harness_key in spec["metrics"].items():
            value = _metric_value(path, result, spec["harness_task"], harness_key, f"tasks.{task}.metrics.{metric}")
            if value is None:
                _count(skipped, "value null or NaN (missing)")
                continue
            key = (names[source_model], task, metric)
            if key in records:
                _same_folder_or_fail(records[key]["file"], path, names[source_model])
                log.info("%s: overrides %s from %s", path, key, records[key]["file"])
            records[key] = {
                "model": names[source_model],
                "family": family,
                "size_b": size_b,
                "task": task,
                "metric": metric,
                "value": value,
                "file": str(path),
            }


def _metric_value(path: Path, result: dict, harness_task: str, harness_key: str, config_key: str) -> float | None:
    """One metric of a harness task's results: a float, None where null or NaN (missing); an error naming
    the file and key where the key is absent or the value is not a number."""
    if harness_key not in result:
        raise StudyImportError(
            f"{path}: results[{harness_task!r}] has no key {harness_key!r} ({config_key}); keys: {sorted(result)}"
        )
    value = result[harness_key]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StudyImportError(f"{path}: results[{harness_task!r}][{harness_key!r}] = {value!r} is not a number")
    return float(value)


def _same_folder_or_fail(earlier: str, later: Path, model: str) -> None:
    if Path(earlier).parent != later.parent:
        raise StudyImportError(
            f"model {model!r} has results in two result folders: {Path(earlier).parent} and {later.parent} "
            f"({earlier}, {later}); keep one, or map them to two model names"
        )
