"""CommonWhy as a downstream criterion in the validity analysis (tidy score-table rows).

Per model (baselines are left out) and split of the chosen question source, rows
``(model, family, size_b, task, metric, value)`` with task ``commonwhy_head`` / ``commonwhy_longtail``:

- ``judge_correct``: share of answers the judge accepts (the paper's Correctness / 100);
- ``rougeL``, ``meteor``, ``bs_f1`` and ``bleu`` (/100) — reference-based, all in [0, 1];
- ``factscore_all``: the reference-free measure — the share of an answer's atomic claims that the
  KG supports, averaged over all answers (not only correct ones, so it exists for every model).

**A criterion only with its evidence** (issue 45): a study measure (``judge_correct``, ``factscore_all``) of a
split enters only when every model's value rests on at least ``criterion.min_questions`` questions and the
values differ across models (a measure constant across models ranks nothing: the artifact judge of issue 45
gave 0.0 to every model on 4 questions). Each row carries its ``n`` (questions) and, for ``judge_correct``, a
Wilson 95% interval (``value_lo``, ``value_hi``; statsmodels); the status names n, the spread across models
(max - min) and each interval's width, or why the measure did not enter.

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


ROW_COLUMNS = ["model", "family", "size_b", "task", "metric", "value", "n", "value_lo", "value_hi"]
#: the default of commonwhy_eval.criterion.min_questions (workflow/schemas/commonwhy_eval.schema.yaml)
MIN_QUESTIONS = 30


def _read_results(results_csv: str | Path, models_config: Mapping, source: str) -> pd.DataFrame:
    results = pd.read_csv(results_csv)
    missing = {"system", "source", "split", "n", "n_correct", *(c for c, _ in METRICS.values())} - set(results.columns)
    if missing:
        raise KeyError(f"{results_csv}: missing columns {sorted(missing)}")
    return results[(results["source"] == source) & results["system"].isin(list(models_config))]


def wilson_interval(successes: float, n: float) -> tuple[float, float]:
    """The Wilson 95% interval of a share (statsmodels), NaN without a count."""
    from statsmodels.stats.proportion import proportion_confint

    if not (pd.notna(successes) and pd.notna(n) and n > 0):
        return float("nan"), float("nan")
    lo, hi = proportion_confint(int(successes), int(n), alpha=0.05, method="wilson")
    return float(lo), float(hi)


def commonwhy_score_rows(
    results_csv: str | Path, models_config: Mapping, source: str = "published", min_questions: int = MIN_QUESTIONS
) -> pd.DataFrame:
    """Score-table rows for every configured model found in results.csv (see module docstring); a study measure
    of a split without its evidence (:func:`evidence_problem`) gives no row."""
    results = _read_results(results_csv, models_config, source)
    rows = []
    for split, mine in results[results["split"].isin(list(TASKS))].groupby("split", sort=True):
        held = {m for m in STUDY_MEASURES if evidence_problem(mine, m, min_questions) is None}
        for result in mine.itertuples(index=False):
            rows += _model_rows(result, models_config[result.system], TASKS[split], held)
    return pd.DataFrame(rows, columns=ROW_COLUMNS)


def _model_rows(result, spec: Mapping, task: str, held: set[str]) -> list[dict]:
    rows = []
    for metric, (column, scale) in METRICS.items():
        value = getattr(result, column)
        if pd.isna(value) or (metric in STUDY_MEASURES and metric not in held):
            continue
        lo, hi = wilson_interval(result.n_correct, result.n) if metric == "judge_correct" else (None, None)
        rows.append(
            {
                **{"model": result.system, "family": spec["family"], "size_b": float(spec["size_b"])},
                **{"task": task, "metric": metric, "value": float(value) * scale, "n": int(result.n)},
                **{"value_lo": lo, "value_hi": hi},
            }
        )
    return rows


def evidence_problem(results: pd.DataFrame, metric: str, min_questions: int) -> str | None:
    """Why the values of `metric` in one split's `results` (one row per model) cannot enter, or None."""
    column = METRICS[metric][0]
    present = results[results[column].notna()]
    if present.empty:
        return None  # missing values: measure_status gives their own reasons
    few = present[present["n"] < min_questions]
    if len(few):
        return f"fewer than {min_questions} questions (criterion.min_questions): " + ", ".join(
            f"{row.system} n={int(row.n)}" for row in few.itertuples(index=False)
        )
    if len(present) > 1 and present[column].nunique() == 1:
        return f"constant across models ({present[column].iloc[0]:g} for all {len(present)}): it ranks nothing"
    return None


#: the measures that enter a scored study (benchval.evaluation.score_table.COMMONWHY_CRITERIA) and the
#: results.csv column that says why a value is missing
STUDY_MEASURES = {"judge_correct": "correctness_status", "factscore_all": "factscore_status"}


def _evidence(results: pd.DataFrame, metric: str) -> str:
    """n, spread across models and, for judge_correct, the widest Wilson interval: "n = 40-50 questions, ..."."""
    column, scale = METRICS[metric]
    values = results[column].dropna() * scale
    n = results.loc[values.index, "n"]
    text = f"n = {int(n.min())}" + (f"-{int(n.max())}" if n.max() != n.min() else "") + " questions per model"
    text += f"; spread across models {values.max() - values.min():.3f} ({values.min():.3f}-{values.max():.3f})"
    if metric == "judge_correct":
        widths = [hi - lo for lo, hi in (wilson_interval(k, m) for k, m in zip(results["n_correct"], results["n"]))]
        text += f"; widest 95% interval {max(widths):.3f} (Wilson)"
    return text


def measure_status(results: pd.DataFrame, metric: str, min_questions: int = MIN_QUESTIONS) -> str:
    """Whether one CommonWhy measure of one split entered the study, and why not: "entered (3 of 3 models;
    n = ..., spread ...)", or "not in the study: <model>: <reason>; ..." with the reason of each model left out
    (the judge's check figures when it is invalid, FActScore's coverage against its bar), or the evidence the
    measure lacks (:func:`evidence_problem`)."""
    column, status = METRICS[metric][0], STUDY_MEASURES[metric]
    if results.empty:
        return "not in the study: no CommonWhy results for the study's models"
    problem = evidence_problem(results, metric, min_questions)
    if problem:
        return f"not in the study: {problem}"
    entered = results[column].notna()
    if entered.all():
        return f"entered ({int(entered.sum())} of {len(results)} models; {_evidence(results, metric)})"
    reasons: dict[str, list[str]] = {}
    for row in results[~entered].itertuples(index=False):
        reason = getattr(row, status) if isinstance(getattr(row, status), str) else ""
        reasons.setdefault(reason or f"no {column} value", []).append(row.system)
    why = "; ".join(f"{', '.join(models)}: {reason}" for reason, models in reasons.items())
    head = "not in the study" if not entered.any() else f"entered for {int(entered.sum())} of {len(results)} models"
    return f"{head}; left out: {why}" if entered.any() else f"{head}: {why}"


def commonwhy_task_rows(
    results_csv: str | Path | None = None,
    models_config: Mapping | None = None,
    source: str = "published",
    min_questions: int = MIN_QUESTIONS,
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
            row.update({f"{metric}_status": measure_status(mine, metric, min_questions) for metric in STUDY_MEASURES})
        rows.append(row)
    return pd.DataFrame(rows)
