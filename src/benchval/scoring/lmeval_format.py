"""lm-evaluation-harness (0.4.13) style sample records from a scores table, for comparison and reuse.

lm-evaluation-harness logs one record per document for ``multiple_choice`` tasks::

    {"doc_id", "doc", "target", "arguments": [[context, continuation], ...],
     "resps": [[[logprob_sum, is_greedy]], ...], "filtered_resps": [[logprob_sum, is_greedy], ...],
     "filter": "none", "metrics": ["acc", "acc_norm"], "doc_hash", "prompt_hash", "target_hash",
     "acc", "acc_norm"}

``acc`` is the argmax of the summed log-probs; ``acc_norm`` that of log-prob / characters of the
continuation (lm-evaluation-harness divides by the characters of the choice without the target
delimiter, i.e. one character fewer where the option starts with its separating space). Prior
requests (calibrated tasks) have no lm-evaluation-harness counterpart and are not written.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _doc(item) -> dict:
    doc = {"id": str(item.id), "context": item.context, "options": [str(o) for o in item.options],
           "label": int(item.label)}
    target = getattr(item, "target", None)
    if isinstance(target, str):
        doc["target"] = target
    return doc


def lmeval_sample_rows(scores: pd.DataFrame, items: pd.DataFrame) -> list[dict]:
    """One lm-evaluation-harness-style record per item, in items order (``doc_id`` = position)."""
    options = scores[scores["kind"] == "option"]
    by_item = {item_id: g.sort_values("option_index") for item_id, g in options.groupby("item_id", sort=False)}
    records = []
    for doc_id, item in enumerate(items.itertuples(index=False)):
        group = by_item.get(str(item.id))
        if group is None or len(group) != len(item.options):
            have = 0 if group is None else len(group)
            raise ValueError(f"item {item.id!r}: {have} scored options, expected {len(item.options)}")
        lls = group["logprob_sum"].to_numpy(dtype=np.float64)
        greedy = group["is_greedy"].to_numpy(dtype=bool)
        pairs = [[float(lp), bool(g)] for lp, g in zip(lls, greedy)]
        doc = _doc(item)
        label = int(item.label)
        acc = float(np.argmax(lls) == label)
        acc_norm = float(np.argmax(lls / group["n_chars"].to_numpy(dtype=np.float64)) == label)
        arguments = [[c, o] for c, o in zip(group["context"], group["continuation"])]
        records.append(
            {
                "doc_id": doc_id,
                "doc": doc,
                "target": label,
                "arguments": arguments,
                "resps": [[p] for p in pairs],
                "filtered_resps": pairs,
                "filter": "none",
                "metrics": ["acc", "acc_norm"],
                "doc_hash": _hash(json.dumps(doc, indent=2, ensure_ascii=False)),
                "prompt_hash": _hash(arguments[0][0]),
                "target_hash": _hash(str(label)),
                "acc": acc,
                "acc_norm": acc_norm,
            }
        )
    return records


def write_lmeval_samples(scores: pd.DataFrame, items: pd.DataFrame, path: str | Path) -> Path:
    """Write :func:`lmeval_sample_rows` as JSON Lines (UTF-8)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for record in lmeval_sample_rows(scores, items):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path
