"""One harness task (or group) of one run: its samples read, then checked against the run's results JSON.

Three kinds (the task's ``output_type`` in the results JSON's ``configs``):

* ``multiple_choice`` with any number of options: one row per option
  (:func:`benchval.lmeval.samples.read_samples`);
* ``generate_until`` scored by ``exact_match``: one row per document under the study task's
  ``filter`` (absent: the only filter the samples hold; :func:`benchval.lmeval.samples.read_generations`);
* a **group** (a key of the results JSON's ``group_subtasks``, e.g. ``mmlu`` or ``mmlu_stem``): the rows
  of its multiple-choice subtasks, found recursively, with doc ids ``<subtask>/<doc_id>``.

The check recomputes only what the results JSON reports: of lm-eval's per-item figures ``acc``,
``acc_norm``, ``acc_bytes``, ``f1`` (binary: a two-option figure) and ``exact_match``, the keys the
task's entry holds, each of which must equal its recomputed mean; a group's figure must equal its
subtasks' items' mean (``weight_by_size``) or the mean of its subtasks' figures. Keys it cannot
recompute (``mcc``, ``brier_score``, ...) are listed in the log as not checked.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.evaluation.lmeval_format import OWN_KEYS, TARGET_DELIMITER
from benchval.lmeval import recompute
from benchval.lmeval.errors import LmEvalImportError
from benchval.lmeval.output_files import RunFiles
from benchval.lmeval.samples import read_generations, read_samples

log = logging.getLogger(__name__)

#: lm-eval's multiple-choice per-item figures recomputed from the samples, with their normalisations
MC_FIGURES = {"acc": "sum", "acc_norm": "per_char", "acc_bytes": "per_byte"}
TOLERANCE = 1e-12


@dataclass
class TaskRows:
    """The samples of one harness task or group of one run."""

    kind: str  # "multiple_choice" or "generate_until"
    rows: pd.DataFrame
    where: str  # the samples file (a group: its first subtask's file)
    options: dict  # generate_until: exact_match options of the task's config

    @property
    def generative(self) -> bool:
        return self.kind == "generate_until"


def _config(run: RunFiles, harness_task: str) -> dict:
    return (run.payload.get("configs") or {}).get(harness_task) or {}


def subtasks(run: RunFiles, group: str) -> list[str]:
    """The tasks of a group (recursively through subgroups), in the results JSON's order; [] for a task."""
    groups = run.payload.get("group_subtasks") or {}
    if group not in groups:
        return []
    found = []
    for member in groups[group]:
        found += subtasks(run, member) or [member]
    return found


def scoring_mode(run: RunFiles, harness_task: str) -> str:
    """plain or calibrated (this project's own calibrated records)."""
    return "calibrated" if _config(run, harness_task).get("scoring_mode") == "calibrated" else "plain"


def _output_type(run: RunFiles, harness_task: str) -> str:
    output_type = _config(run, harness_task).get("output_type", "multiple_choice")
    if output_type not in ("multiple_choice", "generate_until"):
        raise LmEvalImportError(
            f"{run.results}: task {harness_task!r} is {output_type!r}; multiple_choice and generate_until "
            "(exact_match) tasks are read"
        )
    return output_type


def _samples_path(run: RunFiles, harness_task: str) -> Path:
    path = run.samples.get(harness_task)
    if path is None:
        raise LmEvalImportError(
            f"{run.results}: task {harness_task!r} has no samples file beside it (run lm-eval with --log_samples)"
        )
    return path


def _exact_match_options(run: RunFiles, harness_task: str) -> dict:
    for entry in _config(run, harness_task).get("metric_list") or []:
        if entry.get("metric") == "exact_match":
            return entry
    raise LmEvalImportError(
        f"{run.results}: generative task {harness_task!r} has no exact_match metric; only exact_match is read"
    )


def _filter_of(run: RunFiles, harness_task: str, wanted: str | None) -> str:
    keys = [k for k in run.payload["results"][harness_task] if k.startswith("exact_match,") and "_stderr" not in k]
    filters = sorted(k.split(",", 1)[1] for k in keys)
    if wanted is not None:
        if wanted not in filters:
            raise LmEvalImportError(f"{run.results}: task {harness_task!r} has no filter {wanted!r} (it has {filters})")
        return wanted
    if len(filters) != 1:
        raise LmEvalImportError(
            f"{run.results}: task {harness_task!r} reports exact_match under filters {filters}: "
            "name one as the study task's filter"
        )
    return filters[0]


def read_task_rows(run: RunFiles, harness_task: str, tokenizer=None, filter_name: str | None = None) -> TaskRows:
    """The rows of ``harness_task`` in ``run`` (a group: its subtasks'), each part checked against the JSON."""
    members = subtasks(run, harness_task)
    if members:
        parts = [read_task_rows(run, member, tokenizer) for member in members]
        if any(part.generative for part in parts):
            raise LmEvalImportError(f"{run.results}: group {harness_task!r} holds generative tasks; not read")
        rows = pd.concat(
            [part.rows.assign(doc_id=[f"{m}/{d}" for d in part.rows["doc_id"]]) for m, part in zip(members, parts)],
            ignore_index=True,
        )
        check_group(run, harness_task, members, parts)
        return TaskRows("multiple_choice", rows, parts[0].where, {})
    path = _samples_path(run, harness_task)
    if _output_type(run, harness_task) == "generate_until":
        options = _exact_match_options(run, harness_task)
        chosen = _filter_of(run, harness_task, filter_name)
        rows = read_generations(path, chosen, "exact_match")
        task = TaskRows("generate_until", rows, str(path), {**options, "filter": chosen})
    else:
        delimiter = _config(run, harness_task).get("target_delimiter", " ")
        task = TaskRows(
            "multiple_choice", recompute.with_lengths(read_samples(path), delimiter, tokenizer), str(path), {}
        )
    check_against_results(run, harness_task, task)
    return task


def _line_of(path: Path, task: str, key: str) -> int | str:
    """The line of ``"key":`` after ``"task":`` in a results JSON ("?" where the text does not show it)."""
    text = path.read_text(encoding="utf-8")
    start = text.find(json.dumps(task) + ":")
    found = text.find(json.dumps(key) + ":", max(start, 0))
    return text.count("\n", 0, found) + 1 if start >= 0 and found >= 0 else "?"


def reported(run: RunFiles, harness_task: str) -> dict[str, float | None]:
    """The task's metric keys (``name,filter``, no stderr) and values; a value that is not a number
    (nor null) fails naming the results JSON and its line."""
    result = run.payload["results"][harness_task]
    figures = {}
    for key, value in result.items():
        if "_stderr" in key or "," not in key:
            continue
        if isinstance(value, bool) or (value is not None and not isinstance(value, (int, float))):
            raise LmEvalImportError(
                f"{run.results}: line {_line_of(run.results, harness_task, key)}: "
                f"results[{harness_task!r}][{key!r}] = {value!r} is not a number"
            )
        figures[key] = value
    return figures


def _recomputed(run: RunFiles, harness_task: str, task: TaskRows, keys: list[str]) -> dict[str, float]:
    """Each key of ``keys`` that can be recomputed from the rows, recomputed."""
    got = {}
    if run.layout == "benchval":
        # our metrics under their own names (the recorded normalisation), lm-eval's keys as lm-eval computes
        # them (lengths of the choice without the target delimiter, not the record's continuation lengths)
        recorded = run.payload["benchval"]["normalisation"]
        predicted = recompute.predictions(task.rows, recorded, scoring_mode(run, harness_task), task.where)
        ours = recompute.recompute_metrics(predicted, ["accuracy", "macro_f1"])
        got = {key: ours[name] for name, key in OWN_KEYS.items() if key in keys}
        rows = recompute.with_lengths(task.rows.assign(n_chars=np.nan, n_bytes=np.nan), TARGET_DELIMITER)
        task = TaskRows(task.kind, rows[rows["kind"] == "option"], task.where, task.options)
    if task.generative:
        key = f"exact_match,{task.options['filter']}"
        matched = recompute.exact_match(list(task.rows["response"]), list(task.rows["target"]), task.options)
        mismatch = task.rows.loc[matched != task.rows["logged"].to_numpy(), "line"]
        if len(mismatch):
            raise LmEvalImportError(
                f"{task.where}: line {int(mismatch.iloc[0])}: exact_match recomputed from the answer and its "
                "gold text differs from the one logged"
            )
        return {key: float(matched.mean())} if key in keys else {}
    names = {key.split(",", 1)[0] for key in keys if key.endswith(",none")}
    for name, normalisation in MC_FIGURES.items():
        if name in names:
            predicted = recompute.predictions(task.rows, normalisation, "plain", task.where)
            got[f"{name},none"] = float((predicted["label"] == predicted["prediction"]).mean())
    if "f1" in names:
        predicted = recompute.predictions(task.rows, "sum", "plain", task.where)
        if predicted["label"].nunique() > 2 or predicted["prediction"].nunique() > 2:
            raise LmEvalImportError(
                f"{task.where}: lm-eval's f1 (binary) reported for a task with more than two classes"
            )
        got["f1,none"] = recompute.lmeval_f1(predicted.rename(columns={"prediction": "pred"}))
    return got


def check_against_results(run: RunFiles, harness_task: str, task: TaskRows) -> None:
    """The run's own figures, recomputed from its samples, must equal its results JSON's (only those it reports)."""
    figures = reported(run, harness_task)
    got = _recomputed(run, harness_task, task, list(figures))
    for key, value in figures.items():
        if key not in got:
            continue
        if value is not None and not math.isclose(got[key], value, rel_tol=0, abs_tol=TOLERANCE):
            raise LmEvalImportError(
                f"{task.where}: recomputed {key} {got[key]!r} differs from {run.results}'s {value!r}"
                " (samples and results JSON are not of one run)"
            )
    unchecked = sorted(set(figures) - set(got))
    log.info(
        "%s, task %s: checked %s against the results JSON%s",
        run.results,
        harness_task,
        sorted(got) or "nothing",
        f"; not recomputable, not checked: {unchecked}" if unchecked else "",
    )


def check_group(run: RunFiles, group: str, members: list[str], parts: list[TaskRows]) -> None:
    """A group's reported ``acc``/``acc_norm``: its items' mean (weight_by_size) or its subtasks' mean."""
    for key, value in reported(run, group).items():
        name = key.split(",", 1)[0]
        if value is None or name not in MC_FIGURES:
            continue
        per_task = []
        for part in parts:
            predicted = recompute.predictions(part.rows, MC_FIGURES[name], "plain", part.where)
            per_task.append((predicted["label"] == predicted["prediction"]).to_numpy(float))
        by_size, by_task = float(np.concatenate(per_task).mean()), float(np.mean([p.mean() for p in per_task]))
        if not any(math.isclose(value, got, rel_tol=0, abs_tol=TOLERANCE) for got in (by_size, by_task)):
            raise LmEvalImportError(
                f"{run.results}: group {group!r} {key} {value!r} is neither the mean of its subtasks' items "
                f"({by_size!r}) nor of their figures ({by_task!r}); subtasks {members}"
            )
