"""Turn existing scores into a study's tidy ``score_table.csv`` + ``tasks.csv``.

Two sources, configured per study under ``studies:`` (schema: workflow/schemas/studies.schema.yaml):

* ``source: csv`` - one row per model; ``columns`` maps model/family/size_b columns, ``tasks``
  maps each task to its score ``column``, ``role``, ``axes``, ``pairs_with``, ``label`` and
  optionally ``metric`` (default: the study's ``metric``, default ``accuracy``). ``scale``
  multiplies the values (e.g. 0.01 for percentages). Every score and size cell must be a plain
  number (``0.62``, ``1e-3``; sizes may end in a unit, ``1.5B``, ``500M``, ``1.2T``); an empty cell
  is a missing score, and so is a token listed in ``missing_values`` (e.g. ``["n/a", "-"]``). Any
  other cell (``0,62``, ``71%``, ``True``, ``nan``) is an error naming file, line and column.
* ``source: lm_eval`` - imported by :mod:`benchval.lmeval.results` (it builds on this module's checks); rule
  ``import_score_table`` picks the importer by ``source`` (:mod:`benchval.lmeval.steps.import_score_table`).

``path`` may contain ``{mirror}``, replaced by the config's raw-data mirror. Every dropped
row or file is reported (log) with before/after counts and the reason.

Model names: a name is cleaned first (benchval.analysis.model_names.clean: Unicode NFKC, control and
format characters such as line breaks, zero-width spaces and direction overrides removed); every name the
cleaning changed is logged. Two names are one model when the project's one name rule
(benchval.analysis.model_names.normalise: case, surrounding whitespace, separators) makes them equal, so
``"m1 "``, ``"M1"`` and ``"m1"`` with a zero-width space in one file are a duplicate, an error naming both
lines and both raw names; the name written is the cleaned one. A model without a size (empty or non-numeric
``size_b``) is kept with a missing size and counted: the analyses that need a size leave it out
(docs/data-contract.md). ``value_range: any`` (csv studies) takes scores on any scale (Elo, percentages)
into the rank-based analysis; by default they must lie in [0, 1].

Precision: ``score_table.csv`` keeps every score at full precision (the shortest decimal that
reads back to the same float), so near-equal scores stay distinct and ranks do not change on the
way. ``round_digits`` (optional, per study) rounds to that many significant digits first; the
number of scores the rounding turned into new ties is logged.
"""

from __future__ import annotations

import io
import logging
import math
import re
import time
from pathlib import Path

import pandas as pd

from benchval.analysis.study_import import StudyImportError, expand_path, task_table
from benchval.analysis.study_table import SCORE_COLUMNS
from benchval.analysis.model_names import clean, normalise
from benchval.plumbing.planning_checks import read_text

log = logging.getLogger(__name__)
#: a long import logs its progress this often (seconds)
PROGRESS_EVERY_S = 5.0


class Progress:
    """Logs ``done of total <what>`` when ``every_s`` seconds have passed since the last line (or the start)."""

    def __init__(self, total: int, what: str, every_s: float | None = None):
        self.total, self.what = total, what
        self.every_s = PROGRESS_EVERY_S if every_s is None else every_s
        self.started = self.last = time.monotonic()

    def step(self, done: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.every_s:
            log.info("%s: %d of %d done (%.0f s)", self.what, done, self.total, now - self.started)
            self.last = now


def check_values(frame: pd.DataFrame, where: str, value_range: str = "unit") -> None:
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
    """A plain, finite decimal number; anything else (``0,62``, ``71%``, ``True``, ``nan``, ``1e400``) is an error."""
    if not _PLAIN_NUMBER.match(text):
        raise StudyImportError(
            f"{where}: {text!r} is not a number (an empty cell is a missing score; declare other "
            f"missing-value tokens in the study's missing_values)"
        )
    value = float(text)
    if not math.isfinite(value):
        raise StudyImportError(
            f"{where}: {text!r} is not a finite number (it reads as {value}), whatever the value_range"
        )
    return value


def _is_fraction_column(values: pd.Series) -> bool | None:
    """True: every value in [0, 1] and one not 0 or 1; False: a value above 1; None: undecided (0s and 1s)."""
    values = values.dropna()
    if values.empty or (values > 1).any():
        return False if not values.empty else None
    return True if ((values > 0) & (values < 1)).any() else None


def check_scale(columns: dict[str, pd.Series], scale: float, where: str) -> None:
    """A study with a ``scale`` (0.01: percentages) has every score column on that one scale: a column of
    fractions beside percentages (or fractions only) would be divided by 100 without a word."""
    if scale == 1:
        return  # without a scale, a percentage fails the [0, 1] check (check_values)
    kinds = {column: _is_fraction_column(values) for column, values in columns.items()}
    fractions = [column for column, kind in kinds.items() if kind]
    if not fractions:
        return
    largest = {column: float(columns[column].max()) for column in columns}
    others = [column for column, kind in kinds.items() if kind is False]
    listed = ", ".join(f"{column!r} (largest {largest[column]:g})" for column in fractions)
    if others:
        raise StudyImportError(
            f"{where}: scale {scale:g} but columns {listed} hold fractions beside percentages in "
            f"{', '.join(f'{c!r} (largest {largest[c]:g})' for c in others[:3])}; give every column on one scale"
        )
    raise StudyImportError(
        f"{where}: scale {scale:g} but every score column holds fractions ({listed}); remove `scale` for fractions"
    )


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


def _cleaned_names(raw: pd.Series, path: Path) -> pd.Series:
    """The model names cleaned (model_names.clean; a name nothing is left of is missing); logs each change."""
    cleaned = raw.map(lambda name: (clean(name) or None) if isinstance(name, str) else name)
    changed = raw.notna() & (raw.str.strip() != cleaned)
    if changed.any():
        examples = ", ".join(f"line {row + 2}: {raw[row]!r} -> {cleaned[row]!r}" for row in raw.index[changed][:5])
        log.warning(
            "%s: %d model names held control, format or compatibility characters, cleaned (NFKC, Cc/Cf removed): %s",
            path,
            int(changed.sum()),
            examples,
        )
    return cleaned


def _read_text_table(study_name: str, path: Path) -> pd.DataFrame:
    """The CSV's cells as text; an empty file or a byte that is not UTF-8 is an error naming file (and line)."""
    try:
        text = read_text(path)
    except ValueError as error:
        raise StudyImportError(f"study {study_name!r}: {error}") from None
    if not text.strip():
        raise StudyImportError(f"study {study_name!r}: {path} is empty")
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def _check_models(models: pd.DataFrame, raw_names: pd.Series, path: Path) -> None:
    """Fail on a model named twice (by the name rule, benchval.analysis.model_names) or a size that is not
    positive, naming the line(s)."""
    keys = models["model"].map(lambda name: normalise(name) if isinstance(name, str) else name)
    duplicated = keys.duplicated() & keys.notna()
    if duplicated.any():
        row = duplicated.idxmax()
        first = int(keys[keys == keys[row]].index[0])
        raise StudyImportError(
            f"{path}: model {raw_names[row]!r} appears twice: line {first + 2} and line {row + 2} "
            f"(line {first + 2} names it {raw_names[first]!r}; one model by the name rule, "
            "benchval.analysis.model_names)"
        )
    non_positive = models["size_b"].notna() & ~(models["size_b"] > 0)
    if non_positive.any():
        row = non_positive.idxmax()
        raise StudyImportError(
            f"{path}: line {row + 2}: size {float(models.at[row, 'size_b']):g} is not a positive number"
        )


def _task_frames(models: pd.DataFrame, cells: dict, study: dict, scale: float, path: Path) -> list[pd.DataFrame]:
    """Per task, the usable models' scores (scaled), without the models whose score is missing (logged)."""
    frames = []
    progress = Progress(len(study["tasks"]), f"{path}: tasks imported")
    for done, (task, spec) in enumerate(study["tasks"].items(), start=1):
        metric = spec.get("metric", study.get("metric", "accuracy"))
        frame = models.assign(task=task, metric=metric, value=cells[task][models.index] * scale)
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
        progress.step(done)
    return frames


def import_csv(study_name: str, study: dict, mirror: str | Path | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(score_table, tasks) frames from a one-row-per-model CSV (cells read as text, then checked)."""
    path = expand_path(study["path"], mirror)
    if not path.is_file():
        raise StudyImportError(f"study {study_name!r}: source CSV {path} not found")
    raw = _read_text_table(study_name, path)
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
    model_names = _cleaned_names(named["model"], path)
    models = pd.DataFrame({"model": model_names, "family": named["family"], "size_b": size_b})
    _check_models(models, named["model"], path)
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
    cells, progress = {}, Progress(len(study["tasks"]), f"{path}: task columns read")
    for done, (task, spec) in enumerate(study["tasks"].items(), start=1):
        cells[task] = _numeric_cells(raw, spec["column"], f"tasks.{task}", path, missing_values)
        progress.step(done)
    if study.get("value_range", "unit") == "unit":
        check_scale(
            {study["tasks"][task]["column"]: cells[task] for task in cells}, scale, f"study {study_name!r} ({path})"
        )
    frames = _task_frames(models[usable], cells, study, scale, path)
    scores = pd.concat(frames, ignore_index=True)[list(SCORE_COLUMNS)]
    check_values(scores, f"study {study_name!r} ({path})", study.get("value_range", "unit"))
    return scores, task_table(study["tasks"])


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
