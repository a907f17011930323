"""Rule items_paired: paired comparisons and rank resolution of one item source's models
(``results/items/{source}/paired_comparisons.csv`` and ``rank_resolution.csv``; docs/items.md).

The statistics are :mod:`benchval.evaluation.paired` (paired bootstrap interval of the accuracy difference,
McNemar's test) and :mod:`benchval.analysis.rank_resolution` (adjacent separability, tie groups); this module
only chooses what is compared:

* **units**: every task of the source (``level = task``) and, where the responses carry a ``category``
  (MMLU-Pro's 14 subjects), every category of a task (``level = category``);
* **pairs** in a unit: every adjacent pair of its accuracy ranking (``pair_kind = adjacent``, better model
  first) and every pair ``items.paired.pairs.<source>`` names (``configured``, in the order given);
  pooled over the source's tasks (``level = pooled``): the adjacent pairs of the item-weighted ranking and
  the configured pairs;
* **one checkpoint per encoder** (nlu_test_sets): the five fine-tuning checkpoints of one pretrained encoder
  are not independent models, and their per-item mean is not a 0/1 answer, which McNemar's test needs. So
  each encoder is represented by one stated checkpoint, ``items.paired.checkpoint`` (default ``best``, the
  checkpoint chosen on the dev set), and named by the encoder (:func:`one_checkpoint`).

A model's accuracy in a unit is over the items it answered; a comparison uses the items both answered
(``n_items``; ``n_items_unpaired`` counts the rest).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from benchval.analysis.rank_resolution import RESOLUTION_COLUMNS, adjacent_from_items, count_separable
from benchval.evaluation.paired import PAIRED_COLUMNS, PairedSettings, check_tidy, pooled_comparison, task_comparison
from benchval.items.readers import NLU_CHECKPOINTS, SOURCE_NLU, nlu_checkpoint, nlu_family, read_responses

log = logging.getLogger(__name__)

POOLED = "(pooled)"
ITEMS_PAIRED_COLUMNS = ["source", "level", "task", "category", "pair_kind", *PAIRED_COLUMNS[2:]]
ITEMS_RANK_COLUMNS = ["source", "level", "task", "category", "model", "accuracy", "n_items", *RESOLUTION_COLUMNS]


def one_checkpoint(frame: pd.DataFrame, checkpoint: str) -> pd.DataFrame:
    """The nlu responses of the ``checkpoint`` run of every encoder, ``model`` = the encoder (its family)."""
    if checkpoint not in NLU_CHECKPOINTS:
        raise ValueError(f"items.paired.checkpoint: {checkpoint!r} is not one of {list(NLU_CHECKPOINTS)}")
    kept = frame[frame["model"].map(nlu_checkpoint) == checkpoint]
    if kept.empty:
        raise ValueError(f"items.paired.checkpoint: no run ends in _{checkpoint}")
    log.info("one checkpoint per encoder: kept the _%s runs, %d of %d responses", checkpoint, len(kept), len(frame))
    return kept.assign(model=kept["model"].map(nlu_family))


def adjacent_pairs(accuracy: pd.Series) -> list[tuple[str, str]]:
    """(better, next) for every adjacent pair of ``accuracy`` (index = model) ranked best first; equal
    accuracies in model-name order."""
    ranked = accuracy.sort_index().sort_values(ascending=False, kind="mergesort")
    return list(zip(ranked.index[:-1], ranked.index[1:]))


def _units(frame: pd.DataFrame) -> list[tuple[str, str, str, pd.DataFrame]]:
    """(level, task, category, responses whose ``task`` is the unit's own label) of every unit."""
    units = []
    for task, own in frame.groupby("task", sort=True):
        units.append(("task", task, "", own))
        if "category" in own and own["category"].notna().all():
            for category, part in own.groupby("category", sort=True):
                units.append(("category", task, category, part.assign(task=f"{task}/{category}")))
    return units


def _pairs(accuracy: pd.Series, configured: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(model_a, model_b, pair_kind): the adjacent pairs (better model first), then the configured pairs
    both models of which are in ``accuracy``; a configured pair that is also adjacent is listed once, as
    both, in its configured order."""
    order = {frozenset(p): tuple(p) for p in configured if set(p) <= set(accuracy.index)}
    rows = []
    for pair in adjacent_pairs(accuracy):
        key = frozenset(pair)
        rows.append((*order.pop(key), "adjacent; configured") if key in order else (*pair, "adjacent"))
    return rows + [(a, b, "configured") for a, b in order.values()]


def _check_configured(frame: pd.DataFrame, configured: list[tuple[str, str]], source: str) -> None:
    unknown = sorted({m for pair in configured for m in pair} - set(frame["model"]))
    if unknown:
        known = sorted(set(frame["model"]))
        raise ValueError(f"items.paired.pairs.{source}: model(s) {unknown} not in the responses; known: {known}")


def _label(row: dict, source: str, level: str, task: str, category: str, kind: str) -> dict:
    return {**row, "source": source, "level": level, "task": task, "category": category, "pair_kind": kind}


def paired_and_ranks(
    frame: pd.DataFrame, source: str, configured: list[tuple[str, str]], settings: PairedSettings
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(paired comparisons, rank resolution) of one source's tidy responses (one 0/1 answer per model)."""
    frame = check_tidy(frame, f"items source {source}").assign(source=source)  # the key, not the reader's name
    _check_configured(frame, configured, source)
    comparisons, ranks, done = [], [], {}

    def compare(items, source, label, model_a, model_b, settings) -> dict:
        """task_comparison, each (unit, pair) once: the rank resolution reuses the adjacent rows."""
        if (label, model_a, model_b) not in done:
            done[(label, model_a, model_b)] = task_comparison(items, source, label, model_a, model_b, settings)
        return done[(label, model_a, model_b)]

    for level, task, category, own in _units(frame):
        label = own["task"].iloc[0]
        accuracy = own.groupby("model")["correct"].mean()
        for model_a, model_b, kind in _pairs(accuracy, configured):
            row = compare(own, source, label, model_a, model_b, settings)
            comparisons.append(_label(row, source, level, task, category, kind))
        resolution = adjacent_from_items(own, accuracy, settings, source, label, compare)
        resolution.insert(0, "n_items", own.groupby("model").size().reindex(resolution.index))
        resolution.insert(0, "accuracy", accuracy.reindex(resolution.index))
        ranks.append(resolution.rename_axis("model").reset_index().assign(source=source, level=level, task=task))
        ranks[-1]["category"] = category
    pooled_accuracy = frame.groupby("model")["correct"].mean()
    for model_a, model_b, kind in _pairs(pooled_accuracy, configured):
        row = pooled_comparison(frame, model_a, model_b, settings)
        comparisons.append(_label(row, source, "pooled", POOLED, "", kind))
    paired = pd.DataFrame.from_records(comparisons, columns=ITEMS_PAIRED_COLUMNS)
    return paired, pd.concat(ranks, ignore_index=True)[ITEMS_RANK_COLUMNS]


def source_responses(responses: str | Path, comparison: dict) -> pd.DataFrame:
    """The responses a source compares: nlu_test_sets one checkpoint per encoder, the others as read."""
    frame = read_responses(responses)
    if comparison["reader"] == SOURCE_NLU:
        return one_checkpoint(frame, str(comparison["checkpoint"]))
    return frame


def run_items_paired(
    source: str, comparison: dict, settings: dict, seed: int, responses: str, paired_output: str, ranks_output: str
) -> None:
    """Both tables of one source. ``comparison``: ``reader``, ``pairs`` (this source's configured pairs),
    ``checkpoint`` (nlu_test_sets); ``settings``: the ``items`` keys ``n_bootstrap`` and ``ci_level``."""
    frame = source_responses(responses, comparison)
    configured = [(str(a), str(b)) for a, b in comparison["pairs"]]
    options = PairedSettings(int(seed), int(settings["n_bootstrap"]), float(settings["ci_level"]))
    paired, ranks = paired_and_ranks(frame, source, configured, options)
    for table, output in ((paired, paired_output), (ranks, ranks_output)):
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(output, index=False)
    for (level, task, category), rows in ranks.groupby(["level", "task", "category"], sort=False):
        separable, measured, total = count_separable(rows)
        log.info(
            "%s %s %s: %d of %d adjacent pairs separable (%d measured)",
            level,
            task,
            category,
            separable,
            total,
            measured,
        )
