"""Turn existing scores into a study's tidy ``score_table.csv`` + ``tasks.csv``.

Two sources, configured per study under ``studies:`` (schema: workflow/schemas/studies.schema.yaml):

* ``source: csv`` - one row per model; ``columns`` maps model/family/size_b columns, ``tasks``
  maps each task to its score ``column``, ``role``, ``axes``, ``pairs_with``, ``label`` and
  optionally ``metric`` (default: the study's ``metric``, default ``accuracy``). ``scale``
  multiplies the values (e.g. 0.01 for percentages). Every score and size cell must be a plain
  number (``0.62``, ``1e-3``; sizes may end in a unit, ``1.5B``, ``500M``, ``1.2T``); an empty cell
  is a missing score, and so is a token listed in ``missing_values`` (e.g. ``["n/a", "-"]``). Any
  other cell (``0,62``, ``71%``, ``True``, ``nan``) is an error naming file, line and column.
* ``source: lm_eval`` - a directory of lm-evaluation-harness results JSON files
  (``{"results": {task: {"acc,none": x, ...}}, "config": {"model_args": ...}}``). ``models`` maps
  the ``model_key`` value of ``model_args`` (default ``pretrained``) to name/family/size_b;
  ``tasks`` maps each task to its ``harness_task`` and a ``metrics`` mapping
  {our metric name: harness key, e.g. ``accuracy: "acc,none"``}.

``path`` may contain ``{mirror}``, replaced by the config's raw-data mirror. Every dropped
row or file is reported (log) with before/after counts and the reason.

Model names: two names are one model when the project's one name rule (benchval.atlas.names.normalise:
case, surrounding whitespace, separators) makes them equal, so ``"m1 "`` and ``"M1"`` in one file are a
duplicate; the name written is the source's, stripped. A model without a size (empty or non-numeric
``size_b``) is kept with a missing size and counted: the analyses that need a size leave it out
(docs/data-contract.md). ``value_range: any`` (csv studies) takes scores on any scale (Elo, percentages)
into the rank-based analysis; by default they must lie in [0, 1].

Precision: ``score_table.csv`` keeps every score at full precision (the shortest decimal that
reads back to the same float), so near-equal scores stay distinct and ranks do not change on the
way. ``round_digits`` (optional, per study) rounds to that many significant digits first; the
number of scores the rounding turned into new ties is logged.
"""

from __future__ import annotations

import json
import logging
import math
import re
from pathlib import Path

import pandas as pd

from benchval.analysis.study_import import StudyImportError, expand_path, task_table
from benchval.analysis.study_vocabulary import apply_vocabulary
from benchval.analysis.study_table import SCORE_COLUMNS, read_score_table, read_tasks
from benchval.atlas.names import normalise
from benchval.evaluation.score_table import validate_score_table

log = logging.getLogger(__name__)


def _check_values(frame: pd.DataFrame, where: str, value_range: str = "unit") -> None:
    if value_range == "any":  # a rank-based analysis reads the order only
        return
    bad = frame[(frame["value"] < 0) | (frame["value"] > 1)]
    if len(bad):
        row = bad.iloc[0]
        raise StudyImportError(
            f"{where}: value {row['value']} for model {row['model']!r}, task {row['task']!r} is "
            f"outside [0, 1] (set 'scale' if the source uses percentages)"
        )


_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_PLAIN_NUMBER = re.compile(rf"^{_NUMBER}$")
_SIZE = re.compile(rf"^(?P<number>{_NUMBER})\s*(?P<unit>[kKmMbBtT]?)$")
SIZE_UNITS_B = {"": 1.0, "k": 1e-6, "m": 1e-3, "b": 1.0, "t": 1e3}  # -> billions of parameters


def parse_number(text: str, where: str) -> float:
    """A plain decimal number; anything else (``0,62``, ``71%``, ``True``, ``nan``) is an error."""
    if not _PLAIN_NUMBER.match(text):
        raise StudyImportError(
            f"{where}: {text!r} is not a number (an empty cell is a missing score; declare other "
            f"missing-value tokens in the study's missing_values)"
        )
    return float(text)


def parse_size_b(text: str, where: str) -> float:
    """A size in billions of parameters: a number, optionally with a unit (``1.5B``, ``500M``, ``1.2T``)."""
    match = _SIZE.match(text.strip())
    if match is None:
        raise StudyImportError(f"{where}: {text!r} is not a size (a number, optionally ending in K, M, B or T)")
    return float(match["number"]) * SIZE_UNITS_B[match["unit"].lower()]


def _numeric_cells(raw: pd.DataFrame, column: str, key: str, path: Path, missing: set[str], parse=parse_number):
    """The column's cells as floats (NaN: empty or a declared missing-value token); line = row + 2."""
    values = []
    for row, cell in zip(raw.index, raw[column]):
        text = cell.strip()
        if text == "" or text in missing:
            values.append(math.nan)
        else:
            values.append(parse(text, f"{path}: line {row + 2}, column {column!r} ({key})"))
    return pd.Series(values, index=raw.index, dtype=float)


def import_csv(study_name: str, study: dict, mirror: str | Path | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(score_table, tasks) frames from a one-row-per-model CSV (cells read as text, then checked)."""
    path = expand_path(study["path"], mirror)
    if not path.is_file():
        raise StudyImportError(f"study {study_name!r}: source CSV {path} not found")
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing_values = {str(token).strip() for token in study.get("missing_values", [])}
    columns = study["columns"]
    needed = {"columns." + key: columns[key] for key in ("model", "family", "size_b")}
    needed.update({f"tasks.{task}.column": spec["column"] for task, spec in study["tasks"].items()})
    missing = {key: column for key, column in needed.items() if column not in raw.columns}
    if missing:
        raise StudyImportError(
            f"study {study_name!r}: {path} has no column(s) {missing}; its columns: {list(raw.columns)}"
        )
    named = {key: raw[columns[key]].where(raw[columns[key]].str.strip() != "") for key in ("model", "family")}
    size_b = _numeric_cells(raw, columns["size_b"], "columns.size_b", path, missing_values, parse_size_b)
    model_names = named["model"].map(lambda name: name.strip() if isinstance(name, str) else name)
    models = pd.DataFrame({"model": model_names, "family": named["family"], "size_b": size_b})
    keys = models["model"].map(lambda name: normalise(name) if isinstance(name, str) else name)
    duplicated = keys.duplicated() & keys.notna()
    if duplicated.any():
        row = duplicated.idxmax()
        first = int(keys[keys == keys[row]].index[0])
        raise StudyImportError(
            f"{path}: model {models.at[row, 'model']!r} appears twice: line {first + 2} and line {row + 2} "
            f"(line {first + 2} names it {models.at[first, 'model']!r}; one model by the name rule, "
            "benchval.atlas.names)"
        )
    non_positive = models["size_b"].notna() & ~(models["size_b"] > 0)
    if non_positive.any():
        row = non_positive.idxmax()
        raise StudyImportError(
            f"{path}: line {row + 2}: size {float(models.at[row, 'size_b']):g} is not a positive number"
        )
    usable = models["model"].notna() & models["family"].notna()
    log.info(
        "%s: models %d -> %d (dropped %d without name or family); %d kept without a size (left out of the "
        "analyses that need one)",
        path,
        len(models),
        int(usable.sum()),
        int((~usable).sum()),
        int((usable & models["size_b"].isna()).sum()),
    )
    scale = float(study.get("scale", 1.0))
    frames = []
    for task, spec in study["tasks"].items():
        values = _numeric_cells(raw, spec["column"], f"tasks.{task}", path, missing_values) * scale
        frame = models.assign(task=task, metric=spec.get("metric", study.get("metric", "accuracy")), value=values)[
            usable
        ]
        kept = frame[frame["value"].notna()]
        log.info(
            "%s: task %s (column %r): %d models -> %d (dropped %d with a missing score)",
            path,
            task,
            spec["column"],
            len(frame),
            len(kept),
            len(frame) - len(kept),
        )
        frames.append(kept)
    scores = pd.concat(frames, ignore_index=True)[list(SCORE_COLUMNS)]
    _check_values(scores, f"study {study_name!r} ({path})", study.get("value_range", "unit"))
    return scores, task_table(study["tasks"])


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
    from benchval.lmeval.provenance import family_of, read_provenance, size_of

    if "samples" in study:
        from benchval.lmeval.importer import import_lm_eval_samples

        return import_lm_eval_samples(study_name, study, mirror)
    directory = expand_path(study["path"], mirror)
    if not directory.is_dir():
        raise StudyImportError(f"study {study_name!r}: lm-eval results directory {directory} not found")
    model_key = study.get("model_key", "pretrained")
    models = study["models"]
    files = _result_files(directory)
    records: dict[tuple, dict] = {}
    skipped: dict[str, int] = {}
    for path in files:
        try:
            payload = json.loads(path.read_text())
        except json.JSONDecodeError as error:
            raise StudyImportError(f"{path}: not valid JSON ({error})") from error
        if not isinstance(payload, dict) or "results" not in payload:
            skipped["no 'results' key (not a results file)"] = (
                skipped.get("no 'results' key (not a results file)", 0) + 1
            )
            continue
        source_model = _model_args((payload.get("config") or {}).get("model_args")).get(model_key)
        if source_model not in models:
            reason = f"model_args {model_key}={source_model!r} not in the study's models mapping"
            skipped[reason] = skipped.get(reason, 0) + 1
            continue
        model = models[source_model]
        where = f"studies.{study_name}.models.{source_model}"
        size_b = size_of(read_provenance(payload, model_key, path), model, where)
        family = family_of(source_model, model, where, study.get("family_rules"))
        for task, spec in study["tasks"].items():
            result = payload["results"].get(spec["harness_task"])
            if result is None:
                continue
            for metric, harness_key in spec["metrics"].items():
                if harness_key not in result:
                    raise StudyImportError(
                        f"{path}: results[{spec['harness_task']!r}] has no key {harness_key!r} "
                        f"(tasks.{task}.metrics.{metric}); keys: {sorted(result)}"
                    )
                value = result[harness_key]
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    reason = "value null or NaN (missing)"
                    skipped[reason] = skipped.get(reason, 0) + 1
                    continue
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise StudyImportError(
                        f"{path}: results[{spec['harness_task']!r}][{harness_key!r}] = {value!r} is not a number"
                    )
                key = (model["name"], task, metric)
                if key in records:
                    _same_folder_or_fail(records[key]["file"], path, model["name"])
                    log.info("%s: overrides %s from %s", path, key, records[key]["file"])
                records[key] = {
                    "model": model["name"],
                    "family": family,
                    "size_b": size_b,
                    "task": task,
                    "metric": metric,
                    "value": float(value),
                    "file": str(path),
                }
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
    _check_values(scores, f"study {study_name!r} ({directory})")
    return scores, task_table(study["tasks"])


def _same_folder_or_fail(earlier: str, later: Path, model: str) -> None:
    if Path(earlier).parent != later.parent:
        raise StudyImportError(
            f"model {model!r} has results in two result folders: {Path(earlier).parent} and {later.parent} "
            f"({earlier}, {later}); keep one, or map them to two model names"
        )


IMPORTERS = {"csv": import_csv, "lm_eval": import_lm_eval}


def _tied_values(scores: pd.DataFrame) -> int:
    """Scores sharing their value with another model's score on the same task and metric."""
    return int(scores.duplicated(["task", "metric", "value"], keep=False).sum())


def round_scores(scores: pd.DataFrame, digits: int, study_name: str) -> pd.DataFrame:
    """Scores rounded to ``digits`` significant digits; logs how many became tied by it."""
    rounded = scores.assign(value=[float(f"{v:.{digits}g}") for v in scores["value"]])
    log.info(
        "study %s: rounded scores to %d significant digits (round_digits); tied scores %d -> %d",
        study_name,
        digits,
        _tied_values(scores),
        _tied_values(rounded),
    )
    return rounded


def import_study(
    study_name: str, study: dict, mirror: str | Path | None, score_table_csv: str | Path, tasks_csv: str | Path
) -> None:
    """Import one study and write both files; re-read them with the validating readers."""
    source = study.get("source")
    if source not in IMPORTERS:
        raise StudyImportError(
            f"study {study_name!r}: source {source!r} is not importable (one of {sorted(IMPORTERS)})"
        )
    scores, tasks = IMPORTERS[source](study_name, study, mirror)
    tasks = apply_vocabulary(study_name, study, tasks)  # the study's own roles and axes
    if study.get("round_digits") is not None:
        scores = round_scores(scores, int(study["round_digits"]), study_name)
    validate_score_table(scores, f"study {study_name!r}")
    no_scores = [t for t in tasks["task"] if t not in set(scores["task"])]
    tasks.loc[tasks["task"].isin(no_scores), "unavailable"] = "no score in the imported source"
    for path in (score_table_csv, tasks_csv):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    scores.sort_values(["model", "task", "metric"]).to_csv(score_table_csv, index=False)  # full precision
    tasks.to_csv(tasks_csv, index=False)
    read_tasks(tasks_csv)
    read_score_table(score_table_csv)
    log.info(
        "study %s: wrote %d scores (%d models, %d tasks) to %s",
        study_name,
        len(scores),
        scores["model"].nunique(),
        scores["task"].nunique(),
        score_table_csv,
    )
