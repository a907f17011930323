"""Label quality of the judge's check set: a seeded random sample of its pairs labelled a second time, by the
labelling guidelines alone (docs/commonwhy-judge-guidelines.md), and the agreement with the rule labels.

:func:`blind_sample` draws the sample and writes what a second labeller may see: the question, its references,
the answer and the known facts about the question's entity (the gold answers, after the gold audit, of every
item about the same anchor: what the guidelines call "true"), in a shuffled order, **without** the pair's kind,
origin, note or label. The second labeller writes ``sample_id, label (yes/no), why``. :func:`agreement` joins
the two and gives Cohen's kappa (``sklearn.metrics.cohen_kappa_score``), the raw agreement, the counts per kind
and every disagreement, which is then resolved in writing (the resolution file beside the labels).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

SAMPLE_COLUMNS = ["sample_id", "question", "references", "answer", "known_facts"]
LABELS = {"yes": True, "no": False}


def known_facts(check: pd.DataFrame, items_by_anchor: Mapping[str, Sequence[str]], anchor_of: Mapping[str, str]):
    """Per pair: the facts known about its question's entity (the audited gold answers of the items about it)."""
    return [" | ".join(items_by_anchor.get(anchor_of.get(item, ""), [])) for item in check["item"]]


def _normalised(text) -> str:
    return " ".join(str(text).split()).casefold() if isinstance(text, str) else ""


def not_a_reference(check: pd.DataFrame, excluded_pairs: Sequence[str] = ()) -> pd.Series:
    """Which pairs a judgement-heavy sample may draw, by what a blind labeller sees (never the kind or label): a
    non-empty answer that is none of its references verbatim (whitespace and case aside), and a pair not in
    `excluded_pairs` (e.g. an earlier sample's)."""
    answers = check["answer"].map(_normalised)
    verbatim = [
        answer in {_normalised(ref) for ref in refs} for answer, refs in zip(answers, check["references"], strict=True)
    ]
    return (answers != "") & ~pd.Series(verbatim, index=check.index) & ~check["pair_id"].isin(set(excluded_pairs))


def blind_sample(
    check: pd.DataFrame, n: int, seed: int, facts: Sequence[str], *, stream: int = 34, prefix: str = "s"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(what the second labeller sees, the key joining it back to the pairs): `n` pairs drawn at random with
    ``numpy.random.default_rng([seed, stream])``, in the drawn (shuffled) order, named ``<prefix>000`` on."""
    if n > len(check):
        raise ValueError(f"label sample of {n} pairs > the check set's {len(check)} pairs")
    picked = np.random.default_rng([seed, stream]).choice(len(check), size=n, replace=False)
    chosen = check.iloc[picked].reset_index(drop=True)
    sample_ids = [f"{prefix}{i:03d}" for i in range(n)]
    blind = pd.DataFrame(
        {
            "sample_id": sample_ids,
            "question": chosen["question"],
            "references": chosen["references"].map(lambda refs: " || ".join(refs)),
            "answer": chosen["answer"],
            "known_facts": [facts[i] for i in picked],
        }
    )
    key = pd.DataFrame({"sample_id": sample_ids, "pair_id": chosen["pair_id"]})
    return blind[SAMPLE_COLUMNS], key


def agreement(check: pd.DataFrame, key: pd.DataFrame, labels: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    """Cohen's kappa and raw agreement of the rule labels (``expected``) with the second labels, per kind counts,
    and the table of every sampled pair (``agrees``). A label other than yes/no names its sample id."""
    bad = labels.loc[~labels["label"].str.lower().isin(LABELS), "sample_id"].tolist()
    if bad:
        raise ValueError(f"second labels must be yes or no; not so for {bad}")
    if set(labels["sample_id"]) != set(key["sample_id"]):
        missing = sorted(set(key["sample_id"]) - set(labels["sample_id"]))
        raise ValueError(f"second labels do not cover the sample (missing {missing[:10]})")
    from sklearn.metrics import cohen_kappa_score

    table = key.merge(labels, on="sample_id", validate="one_to_one").merge(
        check[["pair_id", "kind", "origin", "expected", "question", "answer", "note"]], on="pair_id"
    )
    table["second"] = table["label"].str.lower().map(LABELS)
    table["agrees"] = table["second"] == table["expected"]
    per_kind = (
        table.groupby("kind")
        .agg(n=("agrees", "size"), agree=("agrees", "sum"), rule_yes=("expected", "sum"), second_yes=("second", "sum"))
        .astype(int)
        .reset_index()
        .to_dict("records")
    )
    summary = {
        "n": len(table),
        "kappa": float(cohen_kappa_score(table["expected"], table["second"])),
        "raw_agreement": float(table["agrees"].mean()),
        "n_disagreements": int((~table["agrees"]).sum()),
        "per_kind": per_kind,
    }
    return summary, table


def labeller_agreement(first: pd.DataFrame, second: pd.DataFrame) -> dict:
    """Cohen's kappa and raw agreement of two labellers (``sample_id,label``) on the sample ids both labelled, and
    the ids where they differ. A label other than yes/no names its sample id; no overlap is an error."""
    for labels in (first, second):
        bad = labels.loc[~labels["label"].str.lower().isin(LABELS), "sample_id"].tolist()
        if bad:
            raise ValueError(f"labels must be yes or no; not so for {bad}")
    both = first.merge(second, on="sample_id", suffixes=("_first", "_second"), validate="one_to_one")
    if both.empty:
        raise ValueError("the two labellings share no sample id")
    from sklearn.metrics import cohen_kappa_score

    a, b = both["label_first"].str.lower().map(LABELS), both["label_second"].str.lower().map(LABELS)
    return {
        "n": len(both),
        "kappa": float(cohen_kappa_score(a, b)),
        "raw_agreement": float((a == b).mean()),
        "differ": both.loc[a != b, "sample_id"].tolist(),
    }
