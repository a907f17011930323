"""From the tidy responses (benchval.items.readers) to the matrices the item analysis reads.

* :func:`wide`: one task's responses as a models x items matrix (NaN where a model has no response).
* :func:`complete`: the stated coverage rule: a model answering under ``min_model_coverage`` of the
  task's items is left out, then every item some remaining model did not answer; both listed.
* :func:`combine_runs`: the runs of one model (nlu_test_sets: the five fine-tuning checkpoints of one
  pretrained encoder) as one row, by the mean of their responses (``"mean"``, an item score in
  {0, 0.2, ..., 1}) or by one checkpoint (``"best"``: the run whose name ends in ``_best``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from benchval.items.readers import nlu_checkpoint

RUN_RULES = ("mean", "best", "none")


def wide(responses: pd.DataFrame, task: str) -> pd.DataFrame:
    """Models x items (``correct``) of one task, rows and columns in sorted order."""
    rows = responses[responses["task"] == task]
    if rows.empty:
        raise ValueError(f"no responses of task {task!r} (tasks: {sorted(responses['task'].unique())})")
    return rows.pivot(index="model", columns="item_id", values="correct").sort_index().sort_index(axis=1)


@dataclass
class Completed:
    matrix: pd.DataFrame
    dropped_models: list[dict] = field(default_factory=list)
    dropped_items: list[str] = field(default_factory=list)

    def report(self, task: str) -> list[dict]:
        return [
            {
                "task": task,
                "rule": "model_coverage",
                "count": len(self.dropped_models),
                "which": self.dropped_models,
            },
            {
                "task": task,
                "rule": "item_not_answered_by_every_model",
                "count": len(self.dropped_items),
                "which": self.dropped_items[:50],
            },
        ]


def complete(matrix: pd.DataFrame, min_model_coverage: float) -> Completed:
    """Drop models that answered under ``min_model_coverage`` of the items, then items any remaining
    model did not answer, so that every subset score is a mean over the same items for every model."""
    coverage = matrix.notna().mean(axis=1)
    low = coverage[coverage < min_model_coverage]
    kept = matrix.drop(index=low.index)
    if kept.empty:
        raise ValueError(f"no model answers at least {min_model_coverage:.0%} of the items")
    answered = kept.notna().all(axis=0)
    dropped_models = [{"model": m, "coverage": round(float(c), 4)} for m, c in low.items()]
    return Completed(kept.loc[:, answered], dropped_models, sorted(answered.index[~answered]))


def combine_runs(matrix: pd.DataFrame, unit_of: dict[str, str], rule: str) -> pd.DataFrame:
    """One row per unit (``unit_of``: run -> unit, e.g. pretrained model) by ``rule`` (:data:`RUN_RULES`)."""
    if rule not in RUN_RULES:
        raise ValueError(f"run rule must be one of {RUN_RULES}, got {rule!r}")
    if rule == "none":
        return matrix
    missing = sorted(set(matrix.index) - set(unit_of))
    if missing:
        raise ValueError(f"runs without a unit: {missing[:5]}")
    if rule == "best":
        best = [run for run in matrix.index if nlu_checkpoint(run) == "best"]
        return matrix.loc[best].rename(index=unit_of).sort_index()
    return matrix.groupby(pd.Series(unit_of).reindex(matrix.index).to_numpy()).mean().sort_index()


def task_matrix(responses: pd.DataFrame, task: str, min_model_coverage: float) -> tuple[pd.DataFrame, list[dict]]:
    """The complete model x item matrix of ``task`` (after the coverage rule) and its filter report."""
    completed = complete(wide(responses, task), min_model_coverage)
    return completed.matrix, completed.report(task)
