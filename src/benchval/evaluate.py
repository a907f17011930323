"""Score one (model, task): predictions, metrics, and lm-evaluation-harness-style outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from benchval import metrics as metric_functions

METRICS_COLUMNS = ["model", "task", "metric", "value", "n_items", "normalisation", "note"]
# lm-evaluation-harness names for our metrics, so that its tooling can read our results JSON.
LMEVAL_METRIC_NAMES = {"accuracy": "acc,none", "macro_f1": "f1,none"}


def evaluate_task(
    items: pd.DataFrame, scores: pd.DataFrame, meta: dict, model: str, normalisation: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Metrics rows (see METRICS_COLUMNS) and the per-item predictions of one model on one task."""
    task, wanted = meta["task"], list(meta["metrics"])
    if meta.get("unavailable"):
        note = f"task unavailable: {meta['unavailable']}"
        rows = [[model, task, metric, float("nan"), 0, normalisation, note] for metric in wanted]
        return pd.DataFrame(rows, columns=METRICS_COLUMNS), pd.DataFrame(columns=["id", "label", "prediction"])
    predictions = metric_functions.predict(items, scores, meta["scoring_mode"], normalisation)
    values = metric_functions.compute_metrics(predictions, wanted)
    rows = [[model, task, metric, value, len(items), normalisation, ""] for metric, value in values.items()]
    return pd.DataFrame(rows, columns=METRICS_COLUMNS), predictions


def lmeval_results(metrics_rows: pd.DataFrame, meta: dict, model: str, model_manifest: dict) -> dict:
    """A results JSON in lm-evaluation-harness's layout (results / configs / n-samples)."""
    task = meta["task"]
    results = {"alias": task}
    for row in metrics_rows.itertuples():
        results[LMEVAL_METRIC_NAMES.get(row.metric, f"{row.metric},none")] = None if pd.isna(row.value) else row.value
    return {
        "results": {task: results},
        "configs": {task: {"task": task, "output_type": "multiple_choice", "scoring_mode": meta["scoring_mode"]}},
        "n-samples": {task: {"original": meta.get("n_raw"), "effective": int(metrics_rows["n_items"].max())}},
        "config": {"model": "benchval", "model_args": f"pretrained={model}", "model_source": model_manifest.get("source")},
        "benchval": {"normalisation": metrics_rows["normalisation"].iloc[0], "model": model},
    }


def lmeval_samples(items: pd.DataFrame, scores: pd.DataFrame, predictions: pd.DataFrame) -> list[dict]:
    """One lm-evaluation-harness-style sample record per item (doc, arguments, resps, target)."""
    options = scores[scores["kind"] == "option"].sort_values(["item_id", "option_index"])
    by_item = {item_id: group for item_id, group in options.groupby("item_id", sort=False)}
    predicted = dict(zip(predictions["id"], predictions["prediction"]))
    records = []
    for doc_id, item in enumerate(items.itertuples()):
        group = by_item[item.id]
        records.append(
            {
                "doc_id": doc_id,
                "doc": {"id": item.id, "context": item.context, "options": list(item.options)},
                "target": int(item.label),
                "arguments": [[c, o] for c, o in zip(group["context"], group["continuation"])],
                "resps": [[[float(lp), bool(g)]] for lp, g in zip(group["logprob_sum"], group["is_greedy"])],
                "filtered_resps": [[float(lp), bool(g)] for lp, g in zip(group["logprob_sum"], group["is_greedy"])],
                "prediction": int(predicted[item.id]),
                "acc": float(predicted[item.id] == item.label),
            }
        )
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
