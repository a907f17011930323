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


def commonwhy_task_rows() -> pd.DataFrame:
    """tasks.csv rows: task, role, pairs_with, axes, label."""
    return pd.DataFrame(
        [
            {"task": task, "role": "downstream", "pairs_with": "", "axes": AXES, "label": LABELS[task]}
            for task in TASKS.values()
        ]
    )
