"""A BERTScore rescaling baseline computed here, the way bert-score builds its own.

bert-score's ``get_rescale_baseline/get_rescale_baseline.py`` takes the sentences of a corpus that have
fewer than 32 words (English: WMT News Crawl 2017, up to 1M lines), pairs them at random without
replacement (two disjoint halves), scores every pair at every layer (``all_layers=True``) and keeps the
mean P, R and F per layer: a CSV ``LAYER,P,R,F`` that ``bert_score.score(..., baseline_path=...)`` reads at
row ``num_layers`` and applies as ``(x - b) / (1 - b)``. bert-score ships no baseline for
all-MiniLM-L6-v2, so the default run builds one from sentences available offline (a corpus of the
raw-data mirror; the config names file, fields and number of pairs), sampled with the config's seed.
The rescaled scores are reported beside the raw ones; they are still not the paper's roberta-large scale.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.commonwhy.eval.metrics import BERTSCORE_METRICS, BertScoreSettings

log = logging.getLogger(__name__)

MAX_WORDS = 32  # bert-score keeps lines of fewer than 32 space-separated words
BASELINE_COLUMNS = {"bs_precision": "P", "bs_recall": "R", "bs_f1": "F"}


def corpus_sentences(path: str | Path, fields: Sequence[str]) -> tuple[list[str], dict]:
    """Distinct non-empty values of `fields` in a JSON-lines file with fewer than MAX_WORDS words, and a report."""
    values = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not a JSON line ({error.msg})") from error
            missing = [f for f in fields if f not in record]
            if missing:
                raise KeyError(f"{path}:{number}: no field {missing} (fields: {sorted(record)})")
            values.extend(str(record[f]).strip() for f in fields)
    distinct = list(dict.fromkeys(v for v in values if v))
    kept = [s for s in distinct if len(s.split(" ")) < MAX_WORDS]
    report = {
        "corpus": str(path),
        "fields": list(fields),
        "values": len(values),
        "removed": {
            "empty": len(values) - len([v for v in values if v]),
            "duplicate": len([v for v in values if v]) - len(distinct),
            f"{MAX_WORDS} words or more": len(distinct) - len(kept),
        },
        "sentences": len(kept),
    }
    return kept, report


def random_pairs(sentences: Sequence[str], n_pairs: int, seed: int) -> tuple[list[str], list[str]]:
    """`n_pairs` pairs of distinct sentences, no sentence used twice (seeded)."""
    if 2 * n_pairs > len(sentences):
        raise ValueError(
            f"commonwhy_eval.metrics.bertscore.baseline.n_pairs: {n_pairs} pairs need "
            f"{2 * n_pairs} sentences, the corpus has {len(sentences)}"
        )
    index = np.random.default_rng(seed).choice(len(sentences), size=(2, n_pairs), replace=False)
    return [sentences[i] for i in index[0]], [sentences[i] for i in index[1]]


def compute_baseline(candidates: Sequence[str], references: Sequence[str], settings: BertScoreSettings) -> pd.DataFrame:
    """Mean BERTScore P, R, F of the pairs at every layer (rows LAYER 0..num_layers), bert-score's file layout."""
    import bert_score

    scores = bert_score.score(
        list(candidates),
        list(references),
        model_type=settings.model_type,
        num_layers=settings.num_layers,
        batch_size=settings.batch_size,
        all_layers=True,
        lang=settings.lang,
        verbose=False,
    )
    means = np.stack([s.mean(dim=-1).numpy() for s in scores], axis=1)  # (layers, 3)
    table = pd.DataFrame(means, columns=["P", "R", "F"])
    table.index.name = "LAYER"
    return table


def read_baseline(path: str | Path, num_layers: int) -> dict[str, float]:
    """The baseline of layer `num_layers` from a ``LAYER,P,R,F`` file, as bert-score reads it."""
    table = pd.read_csv(path)
    if list(table.columns) != ["LAYER", "P", "R", "F"]:
        raise ValueError(f"{path}: not a BERTScore baseline (columns {list(table.columns)}, need LAYER,P,R,F)")
    if num_layers >= len(table):
        raise ValueError(f"{path}: no row for layer {num_layers} (layers 0..{len(table) - 1})")
    row = table.iloc[num_layers]
    return {column: float(row[letter]) for column, letter in BASELINE_COLUMNS.items()}


def rescale(scores: pd.DataFrame, baseline: dict[str, float]) -> pd.DataFrame:
    """`scores` with ``bs_*_rescaled`` columns: (x - b) / (1 - b), bert-score's formula (monotone, so the max over
    references is kept)."""
    out = scores.copy()
    for column in BERTSCORE_METRICS:
        out[f"{column}_rescaled"] = (scores[column] - baseline[column]) / (1 - baseline[column])
    return out
