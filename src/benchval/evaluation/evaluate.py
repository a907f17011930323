"""Score one (model, task): predictions, metrics, and lm-evaluation-harness-style outputs."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import pandas as pd

from benchval.evaluation import metrics as metric_functions
from benchval.evaluation.lmeval_format import (
    HIGHER_IS_BETTER,
    OWN_KEYS,
    STDERR_NOT_AVAILABLE,
    harness_figures,
    lmeval_sample_rows,
    lmeval_stderr,
    stderr_key,
)
from benchval.evaluation.item_bootstrap import item_rng

log = logging.getLogger(__name__)

METRICS_COLUMNS = ["model", "task", "metric", "value", "n_items", "normalisation", "note"]
# our metrics' keys in the lm-eval-style results JSON: our own names, so that lm-eval's keys (acc, acc_norm,
# f1) keep lm-eval's meaning (benchval.evaluation.lmeval_format)
LMEVAL_METRIC_NAMES = OWN_KEYS


def evaluate_task(
    items: pd.DataFrame, option_scores: pd.DataFrame, meta: dict, model: str, normalisation: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Metrics rows (see METRICS_COLUMNS) and the per-item predictions of one model on one task.

    ``option_scores``: the calibrated option scores of rule ``calibrate`` (benchval.evaluation.calibrate).
    """
    task, wanted = meta["task"], list(meta["metrics"])
    if meta.get("unavailable"):
        note = f"task unavailable: {meta['unavailable']}"
        rows = [[model, task, metric, float("nan"), 0, normalisation, note] for metric in wanted]
        return pd.DataFrame(rows, columns=METRICS_COLUMNS), pd.DataFrame(columns=["id", "label", "prediction"])
    predictions = metric_functions.predict_from_option_scores(items, option_scores)
    values = metric_functions.compute_metrics(predictions, wanted)
    rows = [[model, task, metric, value, len(items), normalisation, ""] for metric, value in values.items()]
    return pd.DataFrame(rows, columns=METRICS_COLUMNS), predictions


def _metric_stderr(row, predictions: pd.DataFrame, stderr: dict, model: str, task: str):
    """lm-eval's bootstrap standard error of one metrics row (not available where the metric is missing)."""
    if pd.isna(row.value):
        return STDERR_NOT_AVAILABLE
    labels, predicted = predictions["label"].to_numpy(int), predictions["prediction"].to_numpy(int)
    rng = item_rng(stderr["seed"], "lmeval_stderr", model, task, row.metric)
    return lmeval_stderr(row.metric, labels, predicted, rng, stderr["bootstrap_iters"])


def lmeval_results(
    metrics_rows: pd.DataFrame,
    meta: dict,
    model: str,
    model_manifest: dict,
    predictions: pd.DataFrame | None = None,
    stderr: dict | None = None,
    samples: list[dict] | None = None,
) -> dict:
    """A results JSON in lm-evaluation-harness's layout (results, configs, versions, n-shot,
    higher_is_better, n-samples, config).

    Our metrics under their own names (``accuracy,none``, ``macro_f1,none``); with ``samples`` (the records
    of :func:`lmeval_samples`) lm-eval's own figures beside them (``acc,none``, ``acc_norm,none``, binary
    ``f1,none``; :func:`benchval.evaluation.lmeval_format.harness_figures`). With ``predictions`` and
    ``stderr`` = {seed, bootstrap_iters}, every metric gets its lm-eval standard error beside it.
    """
    task = meta["task"]
    results = {"alias": task}
    for row in metrics_rows.itertuples():
        key = LMEVAL_METRIC_NAMES.get(row.metric, f"{row.metric},none")
        results[key] = None if pd.isna(row.value) else row.value
        if predictions is not None and stderr is not None:
            results[stderr_key(key)] = _metric_stderr(row, predictions, stderr, model, task)
    if samples:
        settings = stderr or {"seed": 0, "bootstrap_iters": 0}
        rng = item_rng(settings["seed"], "lmeval_stderr", model, task, "f1")
        results.update(harness_figures(samples, rng, settings["bootstrap_iters"]))
    names = [key.split(",", 1)[0] for key in results if "," in key and "_stderr" not in key]
    return {
        "results": {task: results},
        "group_subtasks": {task: []},
        "configs": {
            task: {
                "task": task,
                "output_type": "multiple_choice",
                "target_delimiter": " ",
                "num_fewshot": 0,
                "scoring_mode": meta["scoring_mode"],
            }
        },
        "versions": {task: task_version(samples)},
        "n-shot": {task: 0},
        "higher_is_better": {task: {name: HIGHER_IS_BETTER.get(name, True) for name in names}},
        "n-samples": {task: {"original": meta.get("n_raw"), "effective": int(metrics_rows["n_items"].max())}},
        "config": {
            "model": "benchval",
            "model_args": f"pretrained={model}",
            "model_source": model_manifest.get("source"),
        },
        "benchval": {"normalisation": metrics_rows["normalisation"].iloc[0], "model": model},
    }


def task_version(samples: list[dict] | None) -> str:
    """The task's version: ``items-`` and the first 12 hex digits of the sha256 of its documents' hashes
    (lm-eval numbers its task configs; ours are identified by the items they hold), "N/A" without items."""
    if not samples:
        return "N/A"
    digest = hashlib.sha256("".join(record["doc_hash"] for record in samples).encode("ascii")).hexdigest()
    return f"items-{digest[:12]}"


def lmeval_samples(items: pd.DataFrame, scores: pd.DataFrame, predictions: pd.DataFrame) -> list[dict]:
    """lm-evaluation-harness sample records (acc = sum, acc_norm = per character of the choice, f1 on
    two-option tasks, as lm-eval scores them), plus the prediction under this study's normalisation."""
    predicted = dict(zip(predictions["id"], predictions["prediction"]))
    records = lmeval_sample_rows(scores, items)
    for record in records:
        record["benchval_prediction"] = int(predicted[record["doc"]["id"]])
    return records


def write_outputs(out_csv: Path, lmeval_dir: Path, metrics_rows, results: dict, samples: list[dict]) -> None:
    Path(out_csv).parent.mkdir(parents=True, exist_ok=True)
    metrics_rows.to_csv(out_csv, index=False)
    lmeval_dir = Path(lmeval_dir)
    lmeval_dir.mkdir(parents=True, exist_ok=True)
    (lmeval_dir / "results.json").write_text(json.dumps(results, indent=2, default=str))
    with open(lmeval_dir / "samples.jsonl", "w") as handle:
        for record in samples:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def evaluate_files(
    model: str,
    manifest_path: str | Path,
    tasks: list[tuple[str, str, str, str, str, str]],
    normalisation: str,
    stderr_settings: dict,
) -> None:
    """Rules evaluate and evaluate_model_<model>: for each task's (items, meta, scores, calibrated
    scores, metrics csv, lm-eval results json), the metrics and the lm-eval-style results and samples
    (written beside the results json)."""
    manifest = json.loads(Path(manifest_path).read_text())
    for items_path, meta_path, scores_path, calibrated_path, metrics_csv, results_json in tasks:
        items = pd.read_parquet(items_path)
        scores = pd.read_parquet(scores_path)
        meta = json.loads(Path(meta_path).read_text())
        rows, predictions = evaluate_task(items, pd.read_parquet(calibrated_path), meta, model, normalisation)
        samples = lmeval_samples(items, scores, predictions) if not meta.get("unavailable") else []
        results = lmeval_results(rows, meta, model, manifest, predictions, stderr_settings, samples)
        write_outputs(metrics_csv, Path(results_json).parent, rows, results, samples)
        log.info("%s on %s:\n%s", model, meta["task"], rows.to_string(index=False))
