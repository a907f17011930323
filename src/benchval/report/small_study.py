"""What the findings page states about a study with too few models for conclusions across models (the
default study has 3): what its scores show by themselves, read from its scoreboard and paired comparisons
(docs/report.md, "Findings").

* **each model against chance**: per model, on how many tasks its accuracy's item-bootstrap interval lies
  above the task's chance level (the scoreboard's ``ci_above_chance``), naming the tasks where it does not;
* **separable pairs**: pooled over the study's tasks, a pair of models is separable when the paired
  bootstrap interval of its accuracy difference excludes 0 *and* McNemar's exact p, Benjamini-Hochberg
  adjusted over the study's pairs, is below alpha; per task the same rule, adjusted over every (pair, task).

Every number is read from the two tables (``benchval.analysis.scoreboard``, ``benchval.evaluation.paired``);
labels are Markdown-escaped (``benchval.report.safe_text``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import false_discovery_control

from benchval.report.safe_text import markdown_text

POOLED = "(pooled)"


def _digits(*values) -> int:
    finite = [float(v) for v in values if pd.notna(v)]
    return 3 if any(v != 0 and round(v, 2) == 0 for v in finite) else 2


def _estimate(value, low, high) -> str:
    d = _digits(value, low, high)
    return f"{value:+.{d}f} [{low:+.{d}f}, {high:+.{d}f}]"


def chance_lines(scoreboard: pd.DataFrame, labels: dict) -> list[str]:
    """Per model: on how many tasks its accuracy's interval lies above chance, naming the shorter list (the
    tasks above chance where they are the fewer, else the others)."""
    measured = scoreboard[(scoreboard["metric"] == "accuracy") & scoreboard["value"].notna()]
    # a generative task (an lm-eval study's exact match) has no options, so no chance level to be above
    accuracy = measured[measured["chance"].notna()]
    without = sorted(set(measured["task"]) - set(accuracy["task"]))
    if accuracy.empty:
        return ["Against chance: no task has a measured accuracy and a chance level."]
    lines = []
    for model, rows in accuracy.groupby("model", sort=True):
        above = rows["ci_above_chance"].astype("boolean").fillna(False).to_numpy(bool)
        names = [markdown_text(labels.get(t, t)) for t in rows["task"]]
        # the shorter list is named: the tasks above chance where they are the fewer, else the others
        if above.sum() <= len(rows) / 2:
            shown = [n for n, a in zip(names, above) if a]
            detail = f": {', '.join(shown)}" if shown else ""
        elif not above.all():
            detail = f" (not on {', '.join(n for n, a in zip(names, above) if not a)})"
        else:
            detail = ""
        lines.append(
            f"{markdown_text(model)}: accuracy above chance on {int(above.sum())} of {len(rows)} tasks{detail}"
        )
    left_out = f" (no chance level, left out: {', '.join(markdown_text(labels.get(t, t)) for t in without)})"
    return [
        "Against chance (accuracy's item-bootstrap interval entirely above the task's chance level, "
        "scoreboard.csv): " + "; ".join(lines) + "." + (left_out if without else "")
    ]


def _separable(rows: pd.DataFrame, alpha: float) -> tuple[pd.Series, np.ndarray]:
    excludes_zero = (rows["ci_low"] > 0) | (rows["ci_high"] < 0)
    p = rows["p_mcnemar_exact"].to_numpy(float)
    adjusted = np.full(len(p), np.nan)
    defined = np.isfinite(p)
    if defined.any():
        adjusted[defined] = false_discovery_control(p[defined], method="bh")
    return pd.Series(excludes_zero.to_numpy() & (adjusted < alpha), index=rows.index), adjusted


def pair_lines(paired: pd.DataFrame, labels: dict, alpha: float) -> list[str]:
    """Which pairs of models are separable pooled over the tasks, and how many per task."""
    pooled = paired[(paired["task"] == POOLED) & paired["difference"].notna()].reset_index(drop=True)
    if pooled.empty:
        return ["Pairs of models: no pair has a measured difference."]
    separable, adjusted = _separable(pooled, alpha)
    parts = []
    for i, row in pooled.iterrows():
        a, b = markdown_text(row["model_a"]), markdown_text(row["model_b"])
        verdict = "separable" if separable[i] else "not separable"
        parts.append(
            f"{a} − {b}: {_estimate(row['difference'], row['ci_low'], row['ci_high'])} "
            f"on {int(row['n_items'])} items, BH-adjusted McNemar p = {adjusted[i]:.2g} ({verdict})"
        )
    per_task = paired[(paired["task"] != POOLED) & paired["difference"].notna()].reset_index(drop=True)
    task_text = ""
    if len(per_task):
        task_separable, _ = _separable(per_task, alpha)
        task_text = (
            f" Per task, {int(task_separable.sum())} of {len(per_task)} (pair, task) comparisons are separable by "
            "the same rule (BH over all of them)."
        )
    return [
        f"Pairs of models, accuracy difference pooled over the tasks with its paired-bootstrap interval "
        f"(separable: the interval excludes 0 and McNemar's p, BH-adjusted over the {len(pooled)} pairs, "
        f"< {alpha}; paired_comparisons.csv): {int(separable.sum())} of {len(pooled)} separable. "
        + "; ".join(parts)
        + "."
        + task_text
    ]


def lines(scoreboard: pd.DataFrame | None, paired: pd.DataFrame | None, labels: dict, alpha: float) -> list[str]:
    """What the page says about a study with too few models (nothing where it has neither table)."""
    if scoreboard is None and paired is None:
        return ["It has no scoreboard (an imported study): the score table is all it shows."]
    out = chance_lines(scoreboard, labels) if scoreboard is not None else []
    return out + (pair_lines(paired, labels, alpha) if paired is not None else [])
