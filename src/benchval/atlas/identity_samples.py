"""The registry's joins measured where identities hide (docs/atlas.md, "The registry measured"), issue 43.

A random sample of raw names cannot estimate recall: most near-duplicates are true version siblings. Two
samples, each drawn by a stated, seeded rule and labelled by hand from the evidence in the files (names,
organisations, dates, tuning tokens) without the registry's output in view:

* **targeted** (recall, and precision on hard cases): high-risk groups - raw names whose name part is equal
  after lower-casing, dropping every non-alphanumeric character, a trailing date token and a trailing ``hf``
  (:func:`risk_key`); ``n`` groups drawn by :func:`draw_groups`; every raw name gets a ``model`` label (equal
  labels: one model) and ``certain`` (False: the files cannot decide; such names are left out of the counts);
* **precision**: pairs of distinct raw names the registry joins by a rule (their normalised keys differ, so
  the join is more than the one name rule), drawn by :func:`draw_joined_pairs`, each labelled ``same`` true or
  false with its evidence.

Over the unordered pairs of one group: recall = pairs labelled one model that the registry joins / pairs
labelled one model; precision = joined pairs labelled one model / joined pairs. Intervals: Wilson (statsmodels)
over pairs, and a percentile bootstrap over groups (pairs of one group are not independent).
"""

from __future__ import annotations

import re
from itertools import combinations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from benchval.analysis.model_names import normalise

_HF_ID = re.compile(r"^[A-Za-z0-9][\w.\-]*/([\w.\-]+)$")


def risk_key(raw: str) -> str:
    """The high-risk key of a raw name (module docstring)."""
    match = _HF_ID.match(str(raw).strip())
    part = match.group(1) if match else str(raw).strip()
    key = re.sub(r"[^a-z0-9]", "", part.lower())
    key = re.sub(r"(20\d{6}|\d{4})$", "", key)
    return re.sub(r"hf$", "", key)


def draw_groups(names: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """``n`` high-risk groups (at least two distinct raw names), drawn without replacement: group, raw_name,
    files (every file holding the name)."""
    distinct = names.drop_duplicates("raw_name").assign(group=lambda f: f["raw_name"].map(risk_key))
    sizes = distinct.groupby("group")["raw_name"].nunique()
    picked = sorted(np.random.default_rng(seed).choice(sorted(sizes[sizes > 1].index), size=n, replace=False))
    files = names.assign(file=names["source"].astype(str).str.split("/").str[-1]).groupby("raw_name")["file"]
    members = distinct[distinct["group"].isin(picked)][["group", "raw_name"]]
    members["files"] = members["raw_name"].map(files.apply(lambda s: ";".join(sorted(set(s)))))
    return members.sort_values(["group", "raw_name"]).reset_index(drop=True)


def draw_joined_pairs(names: pd.DataFrame, n: int, seed: int) -> pd.DataFrame:
    """``n`` pairs of distinct raw names the registry joins by a rule (normalised keys differ)."""
    distinct = names.drop_duplicates(["raw_name", "canonical_id"])
    pairs = []
    for canonical, rows in distinct.groupby("canonical_id"):
        for a, b in combinations(sorted(set(rows["raw_name"])), 2):
            if normalise(a) != normalise(b):
                pairs.append((a, b, canonical))
    pairs.sort()
    picked = np.sort(np.random.default_rng(seed).choice(len(pairs), size=min(n, len(pairs)), replace=False))
    return pd.DataFrame([pairs[i] for i in picked], columns=["raw_a", "raw_b", "canonical_id"])


def joined(names: pd.DataFrame, a: str, b: str) -> bool:
    """Whether the registry gives raw names a and b one canonical id (in any of their files)."""
    ids = names.groupby("raw_name")["canonical_id"].apply(set)
    return bool(ids.get(a, set()) & ids.get(b, set()))


def targeted_pairs(labels: pd.DataFrame, names: pd.DataFrame) -> pd.DataFrame:
    """Every unordered pair of certain raw names within a labelled group: truth and the registry's join."""
    ids = names.groupby("raw_name")["canonical_id"].apply(set)
    certain = labels[labels["certain"].astype(str).str.lower() == "true"]
    rows = []
    for group, members in certain.groupby("group"):
        model = dict(zip(members["raw_name"], members["model"]))
        for a, b in combinations(sorted(model), 2):
            rows.append(
                {
                    "group": group,
                    "raw_a": a,
                    "raw_b": b,
                    "same": model[a] == model[b],
                    "joined": bool(ids.get(a, set()) & ids.get(b, set())),
                }
            )
    return pd.DataFrame(rows, columns=["group", "raw_a", "raw_b", "same", "joined"])


def _proportion(hits: pd.Series, units: pd.Series, level: float, n_boot: int, seed: int) -> dict:
    """Proportion of True in ``hits`` with Wilson and unit-bootstrap intervals."""
    count, total = int(hits.sum()), int(len(hits))
    if total == 0:
        return {"value": np.nan, "numerator": 0, "denominator": 0}
    low, high = proportion_confint(count, total, alpha=1 - level, method="wilson")
    by_unit = pd.DataFrame({"hit": hits.astype(float).to_numpy(), "unit": units.to_numpy()}).groupby("unit")["hit"]
    sums, sizes = by_unit.sum().to_numpy(), by_unit.size().to_numpy(float)
    draws = np.random.default_rng(seed).integers(0, len(sums), size=(n_boot, len(sums)))
    samples = sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)
    tail = (1 - level) / 2
    b_low, b_high = np.quantile(samples, [tail, 1 - tail])
    return {
        "value": count / total,
        "numerator": count,
        "denominator": total,
        "wilson_low": low,
        "wilson_high": high,
        "bootstrap_low": float(b_low),
        "bootstrap_high": float(b_high),
        "n_units": len(sums),
    }


def sample_scores(pairs: pd.DataFrame, precision: pd.DataFrame, level: float, n_boot: int, seed: int) -> pd.DataFrame:
    """Recall and precision on the targeted pairs, precision on the random joined pairs."""
    same, joined_rows = pairs[pairs["same"]], pairs[pairs["joined"]]
    precision_same = precision["same"].astype(str).str.lower() == "true"
    rows = [
        {"sample": "targeted", "measure": "recall", **_proportion(same["joined"], same["group"], level, n_boot, seed)},
        {
            "sample": "targeted",
            "measure": "precision",
            **_proportion(joined_rows["same"], joined_rows["group"], level, n_boot, seed),
        },
        {
            "sample": "random joined pairs",
            "measure": "precision",
            **_proportion(precision_same, precision["canonical_id"], level, n_boot, seed),
        },
    ]
    return pd.DataFrame(rows)
