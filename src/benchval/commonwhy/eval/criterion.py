"""CommonWhy as a downstream criterion in the validity analysis (tidy score-table rows).

Per model (baselines are left out) and split of the chosen question source, rows
``(model, family, size_b, task, metric, value)`` with task ``commonwhy_head`` / ``commonwhy_longtail``:

- ``judge_correct``: share of answers the judge accepts (the paper's Correctness / 100);
- ``rougeL``, ``meteor``, ``bs_f1`` and ``bleu`` (/100) — reference-based, all in [0, 1];
- ``factscore_all``: the reference-free measure — the share of an answer's atomic claims that the
  KG supports, averaged over all answers (not only correct ones, so it exists for every model).

Task axes: ``event;social``. Of the 231 labelled rules (LabeledRules.json: rule -> [category, domain])
the largest are temporal (60), geographical (36) and biological (33) reasoning about events and
physical facts, and professions/religion/politics/culture (72 together) about social institutions.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

TASKS = {"head": "commonwhy_head", "longtail": "commonwhy_longtail"}
METRICS = {
    "judge_correct": ("correctness_pct", 0.01),
    "rougeL": ("rougeL", 1.0),
    "meteor": ("meteor", 1.0),
    "bs_f1": ("bs_f1", 1.0),
    "bleu": ("bleu", 0.01),
    "factscore_all": ("factscore_all", 1.0),
}
AXES = "event;social"
LABELS = {"commonwhy_head": "CommonWhy (head)", "commonwhy_longtail": "CommonWhy (long-tail)"}


def commonwhy_score_rows(results_csv: str | Path, models_config: Mapping, source: str = "published") -> pd.DataFrame:
    """Score-table rows for every configured model found in results.csv (see module docstring)."""
    results = pd.read_csv(results_csv)
    missing = {"system", "source", "split", *(c for c, _ in METRICS.values())} - set(results.columns)
    if missing:
        raise KeyError(f"{results_csv}: missing columns {sorted(missing)}")
    results = results[(results["source"] == source) & results["system"].isin(list(models_config))]
    rows = []
    for result in results.itertuples(index=False):
        if result.split not in TASKS:
            continue
        spec = models_config[result.system]
        for metric, (column, scale) in METRICS.items():
            value = getattr(result, column)
            if pd.notna(value):
                rows.append(
                    {
                        "model": result.system,
                        "family": spec["family"],
                        "size_b": float(spec["size_b"]),
                        "task": TASKS[result.split],
                        "metric": metric,
                        "value": float(value) * scale,
                    }
                )
    return pd.DataFrame(rows, columns=["model", "family", "size_b", "task", "metric", "value"])


#: the measures that enter a scored study (benchval.evaluation.score_table.COMMONWHY_CRITERIA) and the
#: results.csv column that says why a value is missing
STUDY_MEASURES = {"judge_correct": "correctness_status", "factscore_all": "factscore_status"}


def measure_status(results: pd.DataFrame, metric: str) -> str:
    """Whether one CommonWhy measure of one split entered the study, and why not: "entered (3 of 3 models)",
    or "not in the study: <model>: <reason>; ..." with the reason of each model left out (the judge's check
    figures when it is invalid, FActScore's coverage against its bar)."""
    column, status = METRICS[metric][0], STUDY_MEASURES[metric]
    if results.empty:
        return "not in the study: no CommonWhy results for the study's models"
    entered = results[column].notna()
    if entered.all():
        return f"entered ({int(entered.sum())} of {len(results)} models)"
    reasons: dict[str, list[str]] = {}
    for row in results[~entered].itertuples(index=False):
        reason = getattr(row, status) if isinstance(getattr(row, status), str) else ""
        reasons.setdefault(reason or f"no {column} value", []).append(row.system)
    why = "; ".join(f"{', '.join(models)}: {reason}" for reason, models in reasons.items())
    head = "not in the study" if not entered.any() else f"entered for {int(entered.sum())} of {len(results)} models"
    return f"{head}; left out: {why}" if entered.any() else f"{head}: {why}"


def commonwhy_task_rows(
    results_csv: str | Path | None = None, models_config: Mapping | None = None, source: str = "published"
) -> pd.DataFrame:
    """tasks.csv rows: task, role, pairs_with, axes, label, and per measure that can enter the study
    (``judge_correct_status``, ``factscore_all_status``) whether it did and why not (:func:`measure_status`)."""
    results = pd.read_csv(results_csv) if results_csv else None
    rows = []
    for split, task in TASKS.items():
        row = {"task": task, "role": "downstream", "pairs_with": "", "axes": AXES, "label": LABELS[task]}
        if results is not None:
            mine = results[
                (results["source"] == source)
                & (results["split"] == split)
                & results["system"].isin(list(models_config))
            ]
            row.update({f"{metric}_status": measure_status(mine, metric) for metric in STUDY_MEASURES})
        rows.append(row)
    return pd.DataFrame(rows)
