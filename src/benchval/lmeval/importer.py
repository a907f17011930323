"""A ``source: lm_eval`` study with ``samples:``: metrics recomputed item by item from the samples files.

Study keys (workflow/schemas/studies.schema.yaml, docs/configuration.md "lm-eval studies"): ``path``,
``model_key``, ``models`` (model_args value -> name, family, optional size_b: the size is read from
``config.model_num_parameters`` where the results JSON has it), ``tasks`` (our name -> harness_task,
role, ...), and ``samples``:

* ``normalisation``: sum | per_char | per_byte | per_token (absent: sum, lm-eval's ``acc``);
* ``metrics``: our metrics to recompute (absent: accuracy and macro_f1); a task's own ``metrics``
  mapping, where given, names that task's instead (its keys; the harness keys are not read);
* ``tokenizers``: model_args value -> tokenizer folder (per_token on lm-eval's own output);
* ``bootstrap``: item resamples of the intervals (absent: 1000; seeded by ``seed``, absent: the
  config's top-level ``seed`` in rule lmeval_item_intervals);
* ``allow_incomparable``: true turns the comparability errors into warnings.

Tasks: multiple-choice with any number of options, generative (``generate_until``, exact_match;
a task's ``filter`` names the filter where there are several) and groups (their subtasks' items), read
by :mod:`benchval.lmeval.task_rows`. Each run is checked against its own results JSON, for the figures
it reports only: lm-eval's ``acc``, ``acc_norm``, ``acc_bytes``, ``f1`` (binary) and ``exact_match``,
recomputed from the samples, must equal the JSON's; this project's own runs (results/lmeval/) must give
their results JSON's accuracy and macro-F1 under the normalisation they record. A generative task gets
accuracy (its exact-match rate) and no macro-F1.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pandas as pd

from benchval.analysis.study_import import expand_path, task_table
from benchval.analysis.study_table import SCORE_COLUMNS
from benchval.evaluation.item_bootstrap import item_rng
from benchval.lmeval import recompute
from benchval.lmeval.errors import LmEvalImportError
from benchval.lmeval.output_files import RunFiles, discover_runs
from benchval.lmeval.provenance import (
    RunProvenance,
    comparability_problems,
    family_of,
    model_names,
    read_provenance,
    size_of,
)
from benchval.lmeval.task_names import harness_task_problems
from benchval.lmeval.task_rows import read_task_rows, scoring_mode
from benchval.plumbing.config import DEFAULT_SAMPLE_METRICS

log = logging.getLogger(__name__)

INTERVAL_COLUMNS = ["model", "task", "metric", "value", "ci_low", "ci_high", "n_items", "n_boot"]


def _tokenizer(folder: str | None):
    if folder is None:
        return None
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(folder)


def _without_values(run: RunFiles, harness_task: str) -> bool:
    """True where every metric of the task is null (this project writes that for an unavailable task)."""
    result = run.payload["results"][harness_task]
    values = [v for k, v in result.items() if "," in k and "_stderr" not in k]
    return bool(values) and all(v is None for v in values)


def _runs_by_model(runs: list[RunFiles], study: dict) -> dict[str, list[tuple[RunFiles, RunProvenance]]]:
    """Runs of the mapped models; a model whose runs lie in two model folders is an error naming both."""
    model_key = study.get("model_key", "pretrained")
    by_model: dict[str, list] = {}
    skipped = 0
    for run in runs:
        provenance = read_provenance(run.payload, model_key, run.results)
        if provenance.source_model not in study["models"]:
            skipped += 1
            continue
        by_model.setdefault(provenance.source_model, []).append((run, provenance))
        log.info(
            "%s: model %s, size_b %s (config.model_num_parameters), dtype %s, revision %s, sha %s",
            run.results,
            provenance.source_model,
            provenance.size_b,
            provenance.dtype,
            provenance.revision,
            provenance.sha,
        )
    for model, entries in by_model.items():
        folders = sorted({str(run.model_folder) for run, _ in entries})
        if len(folders) > 1:
            raise LmEvalImportError(
                f"model {model!r} is found in two result folders: {folders[0]} and {folders[1]} "
                "(which run counts is ambiguous: move or delete one, or point the study's path at one)"
            )
    log.info(
        "%d results JSON: %d of mapped models, %d of other models (skipped)", len(runs), len(runs) - skipped, skipped
    )
    return by_model


def _latest_with_task(entries: list, harness_task: str, model: str):
    having = [(run, prov) for run, prov in entries if harness_task in run.payload["results"]]
    if len(having) > 1:
        log.info(
            "model %s, task %s: %d results JSON; the last by name is used: %s",
            model,
            harness_task,
            len(having),
            having[-1][0].results,
        )
    return having[-1] if having else None


def import_lm_eval_samples(study_name: str, study: dict, mirror) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(score_table, tasks) frames of a ``samples:`` lm_eval study; the intervals are logged."""
    scores, tasks, intervals = lm_eval_study(study_name, study, mirror)
    log.info("study %s: item-bootstrap intervals:\n%s", study_name, intervals.to_string(index=False))
    return scores, tasks


def _selected_runs(study: dict, by_model: dict, tokenizers: dict) -> list[tuple]:
    """(source_model, task, run, provenance, rows) of every mapped (model, task), each run checked."""
    selected = []
    for source_model, entries in by_model.items():
        tokenizer = _tokenizer(tokenizers.get(source_model))
        for task, spec in study["tasks"].items():
            found = _latest_with_task(entries, spec["harness_task"], source_model)
            if found is None:
                continue
            run, provenance = found
            if _without_values(run, spec["harness_task"]):
                log.info("model %s, task %s: skipped, %s has no values for it", source_model, task, run.results)
                continue
            rows = read_task_rows(run, spec["harness_task"], tokenizer, spec.get("filter"))
            selected.append((source_model, task, run, provenance, rows))
    return selected


def _doc_hashes(selected: list[tuple]) -> dict:
    hashes: dict = {}
    for source_model, task, _, _, found in selected:
        rows = found.rows if found.generative else found.rows.loc[found.rows["kind"] == "option"]
        options = rows.drop_duplicates("doc_id")
        hashes.setdefault(task, {})[source_model] = list(options["doc_hash"])
    return hashes


def write_item_intervals(study_name: str, study: dict, mirror, output, seed: int = 0) -> pd.DataFrame:
    """Write the study's item-bootstrap intervals (:data:`INTERVAL_COLUMNS`) as CSV; returns them.
    ``seed``: the config's seed, unless the study sets ``samples.seed``."""
    samples = {"seed": seed, **(study.get("samples") or {})}
    _, _, intervals = lm_eval_study(study_name, {**study, "samples": samples}, mirror)
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    intervals.to_csv(output, index=False)
    log.info("study %s: wrote %d intervals to %s", study_name, len(intervals), output)
    return intervals


def _predicted_runs(study_name: str, study: dict, mirror):
    """(source_model, task, provenance, predicted) of every mapped (model, task): each run discovered,
    checked against its own results JSON and for comparability, then its documents predicted under the
    study's normalisation (:func:`recompute.predictions`)."""
    directory = expand_path(study["path"], mirror)
    if not directory.is_dir():
        raise LmEvalImportError(f"study {study_name!r}: lm-eval output folder {directory} not found")
    options = study.get("samples") or {}
    normalisation = options.get("normalisation", "sum")
    runs = discover_runs(directory)
    problems = harness_task_problems(study_name, study, {task for run in runs for task in run.tasks}, directory)
    if problems:
        raise LmEvalImportError("; ".join(problems))
    by_model = _runs_by_model(runs, study)
    selected = _selected_runs(study, by_model, options.get("tokenizers") or {})
    if not selected:
        raise LmEvalImportError(f"study {study_name!r}: no samples of the mapped models and tasks in {directory}")
    _report_comparability(study_name, study, [entry[3] for entry in selected], _doc_hashes(selected))
    for source_model, task, run, provenance, found in selected:
        if found.generative:
            yield source_model, task, provenance, recompute.generation_predictions(found.rows, found.options)
            continue
        mode = scoring_mode(run, study["tasks"][task]["harness_task"])
        predicted = recompute.predictions(found.rows, normalisation, mode, found.where)
        options = found.rows.loc[found.rows["kind"] == "option", "doc_id"].astype(str).value_counts()
        yield source_model, task, provenance, predicted.assign(n_options=predicted["id"].map(options).to_numpy())


def _metrics_of(study_name: str, task: str, predicted: pd.DataFrame, wanted: list[str]) -> list[str]:
    """``wanted``, less macro-F1 for a generative task (its predictions are match / no match: logged)."""
    if predicted.attrs.get("generative") and "macro_f1" in wanted:
        log.info("study %s, task %s: generative (exact_match): macro_f1 not computed, accuracy only", study_name, task)
        return [metric for metric in wanted if metric != "macro_f1"]
    return wanted


def study_predictions(study_name: str, study: dict, mirror):
    """(model, task, predicted) of every mapped (model, task) of a ``samples:`` study: ``model`` its score-table
    columns (name cleaned, family, size_b), ``predicted`` its documents' id, label, prediction and, where they have
    options, n_options (:func:`_predicted_runs`): what the score table, the item intervals and the scoreboard
    (benchval.lmeval.steps.lmeval_scoreboard) all count from."""
    names = model_names(study_name, study["models"])
    for source_model, task, provenance, predicted in _predicted_runs(study_name, study, mirror):
        mapping = study["models"][source_model]
        where = f"study {study_name!r}: models.{source_model}"
        family = family_of(source_model, mapping, where, study.get("family_rules"))
        yield (
            {"model": names[source_model], "family": family, "size_b": size_of(provenance, mapping, where)},
            task,
            predicted,
        )


def study_metrics(study_name: str, study: dict, task: str, predicted: pd.DataFrame) -> list[str]:
    """The metrics the study computes of ``task`` (a task's own ``metrics``, else ``samples.metrics``, else
    accuracy and macro-F1; no macro-F1 for a generative task)."""
    default = (study.get("samples") or {}).get("metrics", DEFAULT_SAMPLE_METRICS)
    return _metrics_of(study_name, task, predicted, list(study["tasks"][task].get("metrics") or default))


def lm_eval_study(study_name: str, study: dict, mirror) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(score_table, tasks, intervals) of a ``samples:`` lm_eval study (see the module docstring)."""
    options = study.get("samples") or {}
    n_boot, seed = int(options.get("bootstrap", 1000)), int(options.get("seed", 0))
    records, interval_rows = [], []
    for model, task, predicted in study_predictions(study_name, study, mirror):
        for metric, value in recompute.recompute_metrics(
            predicted, study_metrics(study_name, study, task, predicted)
        ).items():
            low, high = recompute.item_interval(predicted, metric, item_rng(seed, "lmeval", task, metric), n_boot)
            row = {"model": model["model"], "task": task, "metric": metric, "value": value}
            records.append({**row, "family": model["family"], "size_b": model["size_b"]})
            interval_rows.append({**row, "ci_low": low, "ci_high": high, "n_items": len(predicted), "n_boot": n_boot})
    scores = pd.DataFrame.from_records(records)[list(SCORE_COLUMNS)]
    return scores, task_table(study["tasks"]), pd.DataFrame(interval_rows, columns=INTERVAL_COLUMNS)


def item_results(study_name: str, study: dict, mirror) -> dict:
    """Task -> :class:`benchval.analysis.reliability.ItemResults` of a ``samples:`` study, for task
    reliability (item bootstrap and split-half). Every model of a task is put on the documents all of
    them answered, in doc-id order; documents some model lacks are dropped and logged."""
    from benchval.analysis.reliability import ItemResults

    by_task: dict[str, dict[str, pd.DataFrame]] = {}
    for model, task, predicted in study_predictions(study_name, study, mirror):
        by_task.setdefault(task, {})[model["model"]] = predicted.set_index("id")
    results = {}
    for task, frames in by_task.items():
        shared = sorted(set.intersection(*(set(frame.index) for frame in frames.values())))
        dropped = {model: len(frame) - len(shared) for model, frame in frames.items() if len(frame) != len(shared)}
        if dropped:
            log.info("study %s, task %s: documents not answered by every model dropped: %s", study_name, task, dropped)
        labels = frames[next(iter(frames))].loc[shared, "label"].to_numpy(int)
        predictions = {model: frame.loc[shared, "prediction"].to_numpy(int) for model, frame in frames.items()}
        results[task] = ItemResults(labels, predictions)
    return results


def _in_study_task_names(provenance: RunProvenance, harness: dict) -> RunProvenance:
    """The provenance with its per-task fields keyed by the study's task names, not lm-eval's."""
    renamed = {
        field: {task: getattr(provenance, field)[h] for task, h in harness.items() if h in getattr(provenance, field)}
        for field in ("versions", "n_shot", "task_hashes")
    }
    return replace(provenance, **renamed)


def _report_comparability(study_name: str, study: dict, provenances: list, doc_hashes: dict) -> None:
    """Not comparable: an error naming model and task (a warning with samples.allow_incomparable)."""
    unique = list({id(p): p for p in provenances}.values())
    harness = {task: spec["harness_task"] for task, spec in study["tasks"].items()}
    renamed = [_in_study_task_names(p, harness) for p in unique]
    problems = comparability_problems(renamed, list(harness), doc_hashes)
    if not problems:
        log.info(
            "study %s: %d runs comparable (limit, task versions, hashes, few-shot counts, chat templates)",
            study_name,
            len(unique),
        )
        return
    message = f"study {study_name!r}: runs are not comparable:\n  " + "\n  ".join(problems)
    if not (study.get("samples") or {}).get("allow_incomparable"):
        raise LmEvalImportError(message + "\n(set samples.allow_incomparable: true to import them anyway)")
    log.warning(message)


@lru_cache(maxsize=64)
def _runs_in(folder: str) -> tuple[RunFiles, ...]:
    """The runs whose results JSON lies in ``folder`` itself (read once per folder); none without a JSON file."""
    if not any(Path(folder).glob("*.json")):
        return ()
    return tuple(run for run in discover_runs(Path(folder)) if str(run.results.parent) == folder)


def samples_file_predictions(path: str | Path, normalisation: str = "sum") -> tuple[str, pd.DataFrame] | None:
    """(harness task, id / label / prediction per document) of one samples file, read exactly as a study reads it
    (its results JSON, scoring mode, generative exact match; :func:`_predicted_runs`), so that a run has one
    accuracy wherever it is read (benchval.items.readers.read_lmeval_samples); None where no results JSON
    beside the file claims it."""
    path = Path(path).resolve()
    for run in _runs_in(str(path.parent)):
        for task, samples in run.samples.items():
            if Path(samples).resolve() != path:
                continue
            found = read_task_rows(run, task)
            if found.generative:
                return task, recompute.generation_predictions(found.rows, found.options)
            return task, recompute.predictions(found.rows, normalisation, scoring_mode(run, task), found.where)
    return None
