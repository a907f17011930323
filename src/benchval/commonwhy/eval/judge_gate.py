"""The judge's gate: every type of check pair read with a bootstrap interval over questions, and the verdict
(docs/commonwhy-eval.md, "The gate")."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from benchval.commonwhy.eval.check_natural import KIND as NATURAL_KIND
from benchval.commonwhy.eval.check_wording import NEGATIVE_KINDS, POSITIVE_KINDS


def _fast_measures(expected: np.ndarray, judged: np.ndarray) -> tuple[float, float, float]:
    """accuracy, balanced accuracy, Cohen's kappa from the 2x2 counts (same values as sklearn; tested)."""
    tp, tn = np.sum(expected & judged), np.sum(~expected & ~judged)
    return _measures_from_counts(tp, expected.sum(), tn, (~expected).sum())


def _measures_from_counts(tp, n_pos, tn, n_neg):
    """accuracy, balanced accuracy, kappa from true positives/positives and true negatives/negatives
    (arrays broadcast: one value per bootstrap draw)."""
    tp, n_pos, tn, n_neg = (np.asarray(x, dtype=float) for x in (tp, n_pos, tn, n_neg))
    n = n_pos + n_neg
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = (tp + tn) / n
        both = (n_pos > 0) & (n_neg > 0)
        balanced = np.where(both, (tp / n_pos + tn / n_neg) / 2, np.nan)
        p_yes = (tp + n_neg - tn) / n
        chance = (n_pos / n) * p_yes + (n_neg / n) * (1 - p_yes)
        kappa = np.where(both & (chance < 1), (accuracy - chance) / (1 - chance), np.nan)
    return accuracy, balanced, kappa


def question_weights(n_questions: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, n_questions) counts: how often each question is drawn in each resample of the questions."""
    picks = rng.integers(0, n_questions, size=(n_boot, n_questions))
    weights = np.zeros((n_boot, n_questions))
    np.add.at(weights, (np.repeat(np.arange(n_boot), n_questions), picks.ravel()), 1)
    return weights


def _interval(draws: np.ndarray, level: float) -> tuple[float, float]:
    ok = draws[~np.isnan(draws)]
    if not len(ok):
        return float("nan"), float("nan")
    alpha = (1 - level) / 2
    lo, hi = np.quantile(ok, [alpha, 1 - alpha])
    return float(lo), float(hi)


class _Resampled:
    """Per-question counts of pairs and agreements, and the bootstrap's question weights."""

    def __init__(self, verdicts: pd.DataFrame, n_bootstrap: int, seed: int):
        self.items, self.item_of = np.unique(verdicts["item"].astype(str).to_numpy(), return_inverse=True)
        self.expected = verdicts["expected"].to_numpy(bool)
        self.agree = verdicts["judged_yes"].to_numpy(bool) == self.expected
        self.weights = question_weights(len(self.items), n_bootstrap, np.random.default_rng(seed))

    def per_question(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = np.bincount(self.item_of[mask], minlength=len(self.items)).astype(float)
        k = np.bincount(self.item_of[mask & self.agree], minlength=len(self.items)).astype(float)
        return n, k


def _pooled_row(
    data: _Resampled, ci_level: float, bar: float, min_pairs: int, subset: str = "all", mask: np.ndarray | None = None
) -> dict:
    """Row ``all``: balanced accuracy, accuracy and kappa on every pair, each with its interval (`subset`,
    `mask`: the same on some of the pairs, e.g. the natural answers)."""
    mask = np.ones(len(data.expected), dtype=bool) if mask is None else mask
    pos_n, pos_k = data.per_question(mask & data.expected)
    neg_n, neg_k = data.per_question(mask & ~data.expected)
    accuracy, balanced, kappa = _measures_from_counts(pos_k.sum(), pos_n.sum(), neg_k.sum(), neg_n.sum())
    w = data.weights
    draws = _measures_from_counts(w @ pos_k, w @ pos_n, w @ neg_k, w @ neg_n)
    pooled = {"accuracy": accuracy, "balanced_accuracy": balanced, "kappa": kappa}
    for name, values in zip(pooled.copy(), draws):
        pooled[f"{name}_lo"], pooled[f"{name}_hi"] = _interval(values, ci_level)
    return {
        "subset": subset,
        "role": "pooled",
        "measure": "balanced accuracy",
        "n_pairs": int(mask.sum()),
        "n_questions": int(((pos_n + neg_n) > 0).sum()),
        "n_positive": int(pos_n.sum()),
        "n_negative": int(neg_n.sum()),
        "rate": float(balanced),
        "rate_lo": pooled["balanced_accuracy_lo"],
        "rate_hi": pooled["balanced_accuracy_hi"],
        **{k: float(v) for k, v in pooled.items()},
        "read": bool(min(pos_n.sum(), neg_n.sum()) >= min_pairs),
        "floor": bar,
    }


def _subsets(kinds: np.ndarray, expected: np.ndarray, min_pairs: int) -> list[tuple]:
    """(name, role, mask, pooled kinds) of every row but ``all``: the roles, the kinds, and the pooling rule's
    rows (the kinds of a role with fewer than `min_pairs` pairs, read together)."""
    subsets = [("positive", "positive", expected, "")] if expected.any() else []
    subsets += [("negative", "negative", ~expected, "")] if (~expected).any() else []
    for role, role_kinds in (("positive", POSITIVE_KINDS), ("negative", NEGATIVE_KINDS)):
        present = [kind for kind in role_kinds if (kinds == kind).any()]
        subsets += [(kind, role, kinds == kind, "") for kind in present]
        small = [kind for kind in present if (kinds == kind).sum() < min_pairs]
        if len(small) > 1:
            subsets.append((f"pooled_{role}", role, np.isin(kinds, small), ";".join(small)))
    return subsets


def _rate_row(data: _Resampled, subset: tuple, ci_level: float, floor: float, min_pairs: int) -> dict:
    name, role, mask, pooled = subset
    n, k = data.per_question(mask)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo, hi = _interval((data.weights @ k) / (data.weights @ n), ci_level)
    return {
        "subset": name,
        "role": role,
        "measure": "recall (says Yes)" if role == "positive" else "specificity (says No)",
        "n_pairs": int(n.sum()),
        "n_questions": int((n > 0).sum()),
        "n_positive": int(n.sum()) if role == "positive" else 0,
        "n_negative": int(n.sum()) if role == "negative" else 0,
        "rate": float(k.sum() / n.sum()),
        "rate_lo": lo,
        "rate_hi": hi,
        "read": bool(n.sum() >= min_pairs),
        "floor": floor,
        "pooled_kinds": pooled,
    }


def score_check(
    verdicts: pd.DataFrame,
    n_bootstrap: int,
    ci_level: float,
    seed: int,
    floor: float = 0.8,
    bar: float = 0.8,
    min_pairs_per_type: int = 30,
) -> pd.DataFrame:
    """The gate's table: row ``all`` (balanced accuracy, accuracy, kappa on every pair), ``positive`` (recall on
    every positive) and one row per kind (recall of a positive kind, specificity of a negative kind).

    `verdicts` needs ``item``, ``kind``, ``expected`` and ``judged_yes``. Intervals: percentile bootstrap over
    questions (``item``): each resample draws the questions with replacement and takes all their pairs, so pairs
    of one question move together. ``read``: the row has at least `min_pairs_per_type` pairs (``all``: of each
    class); ``floor``: `bar` for ``all``, `floor` otherwise; ``passes``: read and ``rate_lo`` >= floor.
    """
    data = _Resampled(verdicts, n_bootstrap, seed)
    rows = [_pooled_row(data, ci_level, bar, min_pairs_per_type)]
    for subset in _subsets(verdicts["kind"].to_numpy(), data.expected, min_pairs_per_type):
        rows.append(_rate_row(data, subset, ci_level, floor, min_pairs_per_type))
    natural = verdicts["kind"].to_numpy() == NATURAL_KIND
    if natural.any():  # the models' own answers labelled blind: their own row, read as the pooled row is
        rows.append(_pooled_row(data, ci_level, bar, min_pairs_per_type, NATURAL_KIND, natural))
    table = pd.DataFrame(rows)
    table["pooled_kinds"] = table["pooled_kinds"].fillna("")
    table["read_in"] = [_read_in(row, table) for row in table.itertuples(index=False)]
    table["passes"] = table["read"] & (table["rate_lo"] >= table["floor"])
    return table


def _read_in(row, table: pd.DataFrame) -> str:
    """Where the gate reads a row's pairs: the row itself, its role's pool, or the role's row (every pair of a
    role is in the ``positive`` / ``negative`` row, which is read whenever the role has min_pairs pairs)."""
    if row.read:
        return row.subset
    if row.subset == NATURAL_KIND:  # its pairs are in the rows of their class and in ``all``
        return "all" if bool(table.loc[table["subset"] == "all", "read"].iloc[0]) else ""
    if row.subset in ("all", "positive", "negative") or row.subset.startswith("pooled_"):
        return ""
    pool = table[(table["subset"] == f"pooled_{row.role}") & table["read"]]
    if len(pool) and row.subset in pool.iloc[0]["pooled_kinds"].split(";"):
        return f"pooled_{row.role}"
    role_row = table[(table["subset"] == row.role) & table["read"]]
    return row.role if len(role_row) else ""


def judge_validity(scores: pd.DataFrame, bar: float, judge: str) -> dict:
    """Valid when every row the gate reads passes its floor and the pooled row and at least one positive and
    one negative kind are read; the reason names the rows that fail and those not read."""
    table = scores.set_index("subset")
    overall = table.loc["all"]
    read = table[table["read"]]
    failing = read[~read["passes"]]
    enough = bool(overall["read"]) and (read["role"] == "negative").any() and (read["role"] == "positive").any()
    valid = bool(enough and failing.empty)
    fails = "; ".join(f"{name} {r.rate:.3f} (lower {r.rate_lo:.3f} < {r.floor:.2f})" for name, r in failing.iterrows())
    unread = ", ".join(
        f"{name} ({int(r.n_pairs)} pairs, read in {r.read_in or 'no row'})"
        for name, r in table[~table["read"]].iterrows()
    )
    reason = (
        f"judge {judge}: balanced accuracy {overall['balanced_accuracy']:.3f} (95% CI lower end "
        f"{overall['balanced_accuracy_lo']:.3f}, bar {bar:.2f}) on {int(overall['n_pairs'])} pairs of "
        f"{int(overall['n_questions'])} questions; "
        + ("every type read passes its floor" if failing.empty else f"below the floor: {fails}")
        + (f"; not read (too few pairs): {unread}" if unread else "")
        + ("" if enough else "; too few pairs to read the pooled row and a type of each class")
    )
    return {
        "judge": judge,
        "valid": valid,
        "bar": bar,
        "balanced_accuracy": float(overall["balanced_accuracy"]),
        "balanced_accuracy_lo": float(overall["balanced_accuracy_lo"]),
        "failing": list(failing.index),
        "not_read": list(table.index[~table["read"]]),
        "kinds_not_covered": [
            name
            for name, r in table.iterrows()
            if name in POSITIVE_KINDS + NEGATIVE_KINDS and not r["read"] and not r["read_in"]
        ],
        "reason": reason,
    }


def judge_pairs(judge, check: pd.DataFrame) -> pd.DataFrame:
    """The check set with the judge's verdicts: ``judged_yes`` (any reference accepted), ``n_unparsed``, ``raw``
    (the verdicts' raw values per reference, ``|``-joined)."""
    triples, owners = [], []
    for i, row in enumerate(check.itertuples(index=False)):
        for reference in row.references:
            triples.append((row.question, reference, row.answer))
            owners.append(i)
    verdicts = pd.DataFrame(judge.decide(triples)).assign(owner=owners)
    grouped = verdicts.groupby("owner", sort=True).agg(
        judged_yes=("yes", "any"),
        n_unparsed=("parsed", lambda s: int((~s).sum())),
        raw=("raw", lambda s: "|".join(map(str, s))),
    )
    table = check.reset_index(drop=True).copy()
    for column in ("judged_yes", "n_unparsed", "raw"):
        table[column] = grouped[column].to_numpy()
    table["agrees"] = table["judged_yes"] == table["expected"]
    return table


def gate_scores(verdicts: pd.DataFrame, cfg: Mapping, seed: int) -> pd.DataFrame:
    """The gate's table of `verdicts` with the ``judge_check`` settings `cfg` (floors, bootstrap)."""
    return score_check(
        verdicts,
        cfg["n_bootstrap"],
        cfg["ci_level"],
        seed,
        floor=cfg["floor"],
        bar=cfg["bar"],
        min_pairs_per_type=cfg["min_pairs_per_type"],
    )
