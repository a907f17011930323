"""Strict readers of item-level responses -> one tidy response frame (docs/data-contract.md, section
"Response matrix"; docs/items.md).

Every reader returns a frame with the columns :data:`RESPONSE_COLUMNS` (``family`` and ``option_loglik``
where the source has them): one row per (model, item) response, ``correct`` 0.0 or 1.0, never NaN. A
malformed record fails with :class:`ResponseReadError` naming the file and the line or record index; a
record the source's known quirks make unusable is dropped by a stated rule and counted: the frame's
``attrs["filters"]`` lists every such rule with its count and the first dropped records
(:func:`write_responses` writes it beside the parquet as ``.filters.json``).
"""

from __future__ import annotations

import csv
import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

SOURCE_NLU = "nlu_test_sets"
SOURCE_MMLU_PRO = "mmlu_pro_outputs"
RESPONSE_COLUMNS = ["source", "task", "item_id", "model", "correct"]
OPTIONAL_COLUMNS = ["family", "category", "option_loglik"]
#: the fine-tuning checkpoints of one nlu_test_sets run (percent of training, and the best dev checkpoint)
NLU_CHECKPOINTS = ("1", "10", "25", "50", "best")
#: how many dropped records a filter entry lists by name (the count is always complete)
LISTED_RECORDS = 50
MMLU_PRO_KEYS = ("question_id", "answer", "pred")
_MMLU_PRO_FILE = re.compile(r"^model_outputs_(?P<model>.+)_5shots\.zip$")
_LETTER = re.compile(r"^[A-J]$")
NULL_PRED_RULES = ("wrong", "drop")


class ResponseReadError(ValueError):
    """A malformed response record; the message names the file and the line or record."""


def _filter(rule: str, why: str, records: list) -> dict:
    return {"rule": rule, "why": why, "count": len(records), "records": records[:LISTED_RECORDS]}


def _frame(rows: dict[str, list], filters: list[dict]) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    frame["correct"] = frame["correct"].astype(float)
    for column in ("source", "task", "item_id", "model", *(c for c in ("family", "category") if c in frame)):
        frame[column] = frame[column].astype(str)
    ordered = RESPONSE_COLUMNS + [c for c in OPTIONAL_COLUMNS if c in frame]
    frame = frame[ordered].reset_index(drop=True)
    frame.attrs["filters"] = filters
    return frame


# --- nlu_test_sets (Vania et al. 2021) ---------------------------------------------------------------


def nlu_family(run: str) -> str:
    """A run's pretrained model: the run name before its last ``_`` (``roberta-base-100M-2_best``)."""
    return run.rsplit("_", 1)[0]


def nlu_checkpoint(run: str) -> str:
    return run.rsplit("_", 1)[-1]


def _nlu_cell(value: str, where: str) -> float | None:
    """0/1 (``mctaco`` writes 0.0/1.0); an empty cell is no response (None); anything else fails."""
    text = value.strip()
    if text == "":
        return None
    try:
        number = float(text)
    except ValueError:
        raise ResponseReadError(f"{where}: cell {value!r} is not 0 or 1") from None
    if number not in (0.0, 1.0):
        raise ResponseReadError(f"{where}: cell {value!r} is not 0 or 1")
    return number


def _read_nlu_file(path: Path, dataset: str, rows: dict[str, list], empty: list) -> None:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if not header or header[0] != "userid":
            raise ResponseReadError(f"{path}: line 1: header must start with 'userid'")
        items = header[1:]
        bad = [c for c in items if not c.startswith(f"{dataset}_")]
        if bad or len(set(items)) != len(items):
            raise ResponseReadError(f"{path}: line 1: item columns must be unique '{dataset}_<i>' (got {bad[:3]})")
        seen = set()
        for line, record in enumerate(reader, start=2):
            if len(record) != len(header):
                raise ResponseReadError(f"{path}: line {line}: {len(record)} cells, header has {len(header)}")
            run = record[0]
            if "_" not in run or nlu_checkpoint(run) not in NLU_CHECKPOINTS:
                raise ResponseReadError(
                    f"{path}: line {line}: run {run!r} does not end in _{{{','.join(NLU_CHECKPOINTS)}}}"
                )
            if run in seen:
                raise ResponseReadError(f"{path}: line {line}: run {run!r} twice")
            seen.add(run)
            for item, value in zip(items, record[1:]):
                correct = _nlu_cell(value, f"{path}: line {line}, column {item!r}")
                if correct is None:
                    empty.append({"file": path.name, "line": line, "model": run, "item_id": item})
                    continue
                rows["task"].append(dataset)
                rows["item_id"].append(item)
                rows["model"].append(run)
                rows["family"].append(nlu_family(run))
                rows["correct"].append(correct)


def read_nlu_test_sets(root: str | Path, datasets) -> pd.DataFrame:
    """The 0/1 responses of every run on every item of ``datasets`` (``<root>/<dataset>_irt_all_coded.csv``).

    ``model`` is the run (pretrained model x checkpoint, e.g. ``roberta-base-100M-2_best``), ``family``
    its pretrained model. An empty cell is no response: dropped and counted (none in the published files)."""
    root = Path(root)
    rows: dict[str, list] = {"task": [], "item_id": [], "model": [], "family": [], "correct": []}
    empty: list[dict] = []
    for dataset in datasets:
        path = root / f"{dataset}_irt_all_coded.csv"
        if not path.is_file():
            raise ResponseReadError(f"{path}: no such file (dataset {dataset!r})")
        _read_nlu_file(path, dataset, rows, empty)
    rows["source"] = [SOURCE_NLU] * len(rows["task"])
    return _frame(rows, [_filter("empty_cell", "an empty cell is no response; dropped", empty)])


# --- mmlu_pro_outputs (TIGER-AI-Lab/MMLU-Pro eval_results) --------------------------------------------


def mmlu_pro_model(path: str | Path) -> str:
    """The model of ``model_outputs_<model>_5shots.zip`` as the authors spelled it."""
    match = _MMLU_PRO_FILE.match(Path(path).name)
    if not match:
        raise ResponseReadError(f"{path}: not a model_outputs_<model>_5shots.zip file")
    return match["model"]


def _question_id(value, where: str) -> str:
    if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value.isdigit())):
        raise ResponseReadError(f"{where}: question_id {value!r} is not an integer id")
    return str(int(value))


def _mmlu_pro_records(path: Path) -> list:
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if n.endswith(".json")]
        if len(names) != 1:
            raise ResponseReadError(f"{path}: expected one JSON file in the zip, found {names}")
        try:
            records = json.loads(archive.read(names[0]))
        except json.JSONDecodeError as error:
            raise ResponseReadError(f"{path}:{names[0]}: not valid JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(records, list):
        raise ResponseReadError(f"{path}: the JSON is not a list of records")
    return records


def _read_mmlu_pro_file(path: Path, null_pred: str, rows: dict, non_records: list, null_preds: list) -> None:
    model = mmlu_pro_model(path)
    seen: dict[str, int] = {}
    for index, record in enumerate(_mmlu_pro_records(path)):
        where = f"{path.name}: record {index}"
        if not isinstance(record, dict):
            non_records.append({"file": path.name, "index": index, "value": str(record)[:40]})
            continue
        missing = [key for key in MMLU_PRO_KEYS if key not in record]
        if missing:
            raise ResponseReadError(f"{where}: missing key(s) {missing}")
        item = _question_id(record["question_id"], where)
        if item in seen:
            raise ResponseReadError(f"{where}: question_id {item} twice (first at record {seen[item]})")
        seen[item] = index
        answer, pred = record["answer"], record["pred"]
        if not isinstance(answer, str) or not _LETTER.match(answer):
            raise ResponseReadError(f"{where}: answer {answer!r} is not a letter A-J")
        if pred is None:
            null_preds.append({"file": path.name, "index": index, "model": model, "item_id": item})
            if null_pred == "drop":
                continue
        elif not isinstance(pred, str) or not _LETTER.match(pred):
            raise ResponseReadError(f"{where}: pred {pred!r} is neither null nor a letter A-J")
        category = record.get("category")
        if not isinstance(category, str) or not category:
            raise ResponseReadError(f"{where}: category {category!r} is not a subject name")
        rows["item_id"].append(item)
        rows["model"].append(model)
        rows["category"].append(category)
        rows["correct"].append(float(pred == answer))


def read_mmlu_pro_outputs(root: str | Path, null_pred: str = "wrong") -> pd.DataFrame:
    """Every model's answer to every MMLU-Pro question in ``<root>/model_outputs_*_5shots.zip``.

    Quirks (SOURCE.md): a list entry that is not a record (DeepSeek-Coder-V2's 43 strings) is dropped and
    counted; ``pred`` null (no letter extracted) counts as wrong (``null_pred="wrong"``, counted) or is
    dropped (``"drop"``); a file may hold fewer questions (Gemini): those responses are simply absent.
    ``model`` is the file's spelling of the model; ``category`` the question's subject (14, e.g. ``law``)."""
    if null_pred not in NULL_PRED_RULES:
        raise ValueError(f"null_pred must be one of {NULL_PRED_RULES}, got {null_pred!r}")
    files = sorted(Path(root).glob("model_outputs_*_5shots.zip"))
    if not files:
        raise ResponseReadError(f"{root}: no model_outputs_*_5shots.zip files")
    rows: dict[str, list] = {"item_id": [], "model": [], "category": [], "correct": []}
    non_records: list[dict] = []
    null_preds: list[dict] = []
    for path in files:
        _read_mmlu_pro_file(path, null_pred, rows, non_records, null_preds)
    rows["source"] = [SOURCE_MMLU_PRO] * len(rows["item_id"])
    rows["task"] = ["mmlu_pro"] * len(rows["item_id"])
    null_why = {
        "wrong": "pred null (no answer letter extracted): kept and counted as wrong",
        "drop": "pred null (no answer letter extracted): dropped",
    }[null_pred]
    return _frame(
        rows,
        [
            _filter("non_record", "a list entry that is not a record; dropped", non_records),
            _filter(f"null_pred_{null_pred}", null_why, null_preds),
        ],
    )


# --- this project's own scores and lm-evaluation-harness samples --------------------------------------


def _scores_task_files(path: Path) -> tuple[str, str, Path, Path]:
    """model, task and the task's items and meta files of ``results/scores/{model}/{task}.parquet``."""
    model, task = path.parent.name, path.stem
    tasks_dir = path.parent.parent.parent / "tasks"
    return model, task, tasks_dir / f"{task}.parquet", tasks_dir / f"{task}.meta.json"


def read_scores(paths, normalisation: str = "per_token") -> pd.DataFrame:
    """This project's per-option log-likelihoods (``results/scores/{model}/{task}.parquet``) as responses:
    ``correct`` = the project's prediction (``benchval.evaluation.metrics.predict``: the task's scoring
    mode, calibrated tasks with their N/A prior) equals the label of ``results/tasks/{task}.parquet``;
    ``option_loglik`` = each option's summed log-likelihood."""
    from benchval.evaluation.metrics import predict
    from benchval.scoring.store import read_scores as read_score_file
    from benchval.tasks.items import read_items, read_task_meta

    frames = []
    for path in map(Path, paths):
        model, task, items_path, meta_path = _scores_task_files(path)
        for needed in (items_path, meta_path):
            if not needed.is_file():
                raise ResponseReadError(f"{path}: its task file {needed} is missing")
        items, meta, scores = read_items(items_path), read_task_meta(meta_path), read_score_file(path)
        predicted = predict(items, scores, meta["scoring_mode"], normalisation)
        options = scores[scores["kind"] == "option"].sort_values(["item_id", "option_index"])
        logliks = options.groupby("item_id", sort=False)["logprob_sum"].agg(lambda s: [float(v) for v in s])
        frames.append(
            pd.DataFrame(
                {
                    "source": "scores",
                    "task": task,
                    "item_id": predicted["id"].astype(str).to_numpy(),
                    "model": model,
                    "correct": (predicted["label"] == predicted["prediction"]).astype(float).to_numpy(),
                    "option_loglik": logliks.reindex(predicted["id"]).to_list(),
                }
            )
        )
    if not frames:
        raise ResponseReadError("read_scores: no score files given")
    return _frame(pd.concat(frames, ignore_index=True).to_dict("list"), [])


_SAMPLES_FILE = re.compile(r"^samples_(?P<task>.+?)(?:_\d{4}-\d{2}-\d{2}T[\d\-.:]+)?\.jsonl$")


def lmeval_model_task(path: str | Path) -> tuple[str, str]:
    """lm-eval's layout: ``<output>/<model>/samples_<task>_<timestamp>.jsonl`` (model = the folder);
    this project's: ``results/lmeval/{model}/{task}/samples.jsonl``."""
    path = Path(path)
    if path.name == "samples.jsonl":
        return path.parent.parent.name, path.parent.name
    match = _SAMPLES_FILE.match(path.name)
    if not match:
        raise ResponseReadError(f"{path}: neither samples_<task>_<time>.jsonl nor <model>/<task>/samples.jsonl")
    return path.parent.name, match["task"]


def read_lmeval_samples(paths) -> pd.DataFrame:
    """lm-evaluation-harness ``--log_samples`` files as responses, ``correct`` as the study counts it: where a
    results JSON beside the file claims it, by the study's own reading (benchval.lmeval.importer.
    samples_file_predictions: lm-eval's ``acc``, calibrated priors, generative exact match), so that one run has
    one accuracy; a samples file alone is a multiple-choice file whose ``correct`` is the option of the highest
    summed log-likelihood (ties: the lower index, as lm-eval's argmax). ``option_loglik``: those log-likelihoods
    (empty for a generative task). Each file is read by ``benchval.lmeval.samples``, which fails on a malformed
    record naming the file and line."""
    from benchval.lmeval.importer import samples_file_predictions
    from benchval.lmeval.samples import read_samples

    frames = []
    for path in paths:
        model, task = lmeval_model_task(path)
        studied = samples_file_predictions(path)
        if studied is not None and studied[1].attrs.get("generative"):
            options = pd.DataFrame({"doc_id": [], "logprob_sum": [], "target": []})  # no options: exact match
        else:
            samples = read_samples(path)
            options = samples[samples["kind"] == "option"].sort_values(["doc_id", "option_index"], kind="stable")
        logliks = options.groupby("doc_id", sort=True)["logprob_sum"].agg(lambda s: [float(v) for v in s])
        if studied is None:
            targets = options.groupby("doc_id", sort=True)["target"].first()
            correct = (logliks.map(lambda values: int(np.argmax(values))) == targets).astype(float)
            ids = logliks.index.astype(str)
        else:
            predicted = studied[1].set_index("id")
            correct = (predicted["prediction"] == predicted["label"]).astype(float)
            ids = predicted.index.astype(str)
            logliks = logliks.set_axis(logliks.index.astype(str)).reindex(ids)
            logliks = logliks.map(lambda values: values if isinstance(values, list) else [])
        frames.append(
            pd.DataFrame(
                {
                    "source": "lm_eval",
                    "task": task,
                    "item_id": list(ids),
                    "model": model,
                    "correct": correct.to_numpy(),
                    "option_loglik": list(logliks),
                }
            )
        )
    if not frames:
        raise ResponseReadError("read_lmeval_samples: no samples files given")
    return _frame(pd.concat(frames, ignore_index=True).to_dict("list"), [])


# --- the stored file ---------------------------------------------------------------------------------


def filters_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name.removesuffix(".parquet") + ".filters.json")


def validate_responses(frame: pd.DataFrame, where: str = "responses") -> None:
    """The contract: required columns, correct in {0, 1} and never NaN, one row per (task, item, model)."""
    missing = [c for c in RESPONSE_COLUMNS if c not in frame]
    if missing:
        raise ResponseReadError(f"{where}: missing column(s) {missing}")
    values = frame["correct"].to_numpy(float)
    if np.isnan(values).any() or not np.isin(values, (0.0, 1.0)).all():
        raise ResponseReadError(f"{where}: 'correct' must be 0.0 or 1.0, never NaN")
    duplicated = frame.duplicated(["source", "task", "item_id", "model"])
    if duplicated.any():
        row = frame[duplicated].iloc[0]
        raise ResponseReadError(f"{where}: response of {row['model']!r} to {row['task']}/{row['item_id']} twice")


def write_responses(frame: pd.DataFrame, path: str | Path) -> None:
    """The parquet and, beside it, ``.filters.json`` (every drop rule, its count, the records)."""
    validate_responses(frame, str(path))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    filters = frame.attrs.get("filters", [])
    stored = frame.copy()
    stored.attrs = {}
    stored.to_parquet(path, index=False)
    summary = {
        "rows": len(frame),
        "models": int(frame["model"].nunique()),
        "items": int(frame.drop_duplicates(["task", "item_id"]).shape[0]),
        "filters": filters,
    }
    filters_path(path).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


def read_responses(path: str | Path) -> pd.DataFrame:
    frame = pd.read_parquet(path)
    validate_responses(frame, str(path))
    return frame
