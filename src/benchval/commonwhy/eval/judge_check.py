"""A labelled check set for the correctness judge, built from the data and the KG (never from a judge).

Each pair is (question, reference, answer, expected verdict). Positives (expected Yes):

- ``reference``: the reference itself;
- ``second_template``: the same KG facts worded by a second, different template — for a question
  constructed over the KG, "<subject>'s <property label> is <value label>." for each fact of its
  subgraph, followed by the reference's clauses that do not mention the anchor (the commonsense
  side of the rule);
- ``other_valid_cause``: another answer of the same question text (multi-answer items).

Every pair carries ``references``: all distinct answers of its question (one for most questions), and
the judge's verdict is Yes when it accepts the answer against any of them, as when answers are judged
(:func:`~.judge.judge_answers`). So a multi-answer question's other valid cause is a positive.

Hard negatives (expected No):

- ``other_rule_same_entity``: the answer of an item with another rule about the same anchor entity;
- ``entity_swap``: the reference with its key value (constructed: the fact's value, e.g. the country
  of citizenship, swapped for another value of the same property in the KG) or key entity (published:
  the anchor label swapped for the anchor of another item of the same rule) replaced;
- ``question_restated``: the question turned into an answer ("Why couldn't A have X?" ->
  "Because A couldn't have X.");
- ``evasive``: an empty or evasive answer (the configured list, chosen in turn).

:func:`score_check` gives accuracy, balanced accuracy and Cohen's kappa (sklearn) over all pairs and
per negative type (all positives + that type), with stratified, seeded percentile bootstrap
intervals; :func:`judge_validity` compares the lower end of the overall balanced accuracy's
interval with the bar.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

log = logging.getLogger(__name__)

POSITIVE_KINDS = ("reference", "second_template", "other_valid_cause")
NEGATIVE_KINDS = ("other_rule_same_entity", "entity_swap", "question_restated", "evasive")
CHECK_COLUMNS = [
    "pair_id",
    "item",
    "source",
    "kind",
    "expected",
    "question",
    "reference",
    "references",
    "answer",
    "note",
]
_CLAUSE = re.compile(r",?\s+(?:and|while|whereas|but)\s+", re.IGNORECASE)
_BECAUSE = re.compile(r"^\s*because\s+", re.IGNORECASE)


# --- building the pairs ----------------------------------------------------------------------------


def _contains(text: str, phrase: str) -> bool:
    return bool(phrase) and re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text) is not None


def restate_question(question: str, anchor: str | None) -> str:
    """The question as an answer: "Why couldn't A have X?" -> "Because A couldn't have X."."""
    body = re.sub(r"^\s*why\s+", "", question.strip(), flags=re.IGNORECASE).rstrip(" ?")
    if anchor:
        match = re.match(r"^(\S+)\s+" + re.escape(anchor) + r"\b(.*)$", body)
        if match:
            return f"Because {anchor} {match.group(1)}{match.group(2)}."
    return f"Because {body}."


def second_template(reference: str, facts: Sequence[Mapping], anchor: str) -> str | None:
    """The facts as "<subject>'s <property> is <value>." plus the reference's clauses without the anchor."""
    stated = [
        f"{f['subject_label'] or f['subject']}'s {f['property_label'] or f['property']} is "
        f"{f['value_label'] or f['value']}."
        for f in facts
    ]
    if not stated:
        return None
    clauses = [c.strip(" .") for c in _CLAUSE.split(_BECAUSE.sub("", reference.strip()))]
    rest = [c[:1].upper() + c[1:] + "." for c in clauses if c and not _contains(c, anchor)]
    return " ".join(stated + rest)


def swap_phrase(text: str, old: str, new: str) -> str | None:
    """`text` with every whole-word `old` replaced by `new` (None when `old` does not occur)."""
    if not _contains(text, old) or old == new:
        return None
    return re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", new, text)


class CheckSetBuilder:
    """Builds the check pairs for one item at a time (see the module docstring)."""

    def __init__(self, items: pd.DataFrame, kg, evasive: Sequence[str], rng: np.random.Generator):
        self.items, self.kg, self.evasive, self.rng = items, kg, list(evasive), rng
        self._values: dict[str, list[str]] = {}
        self._n_evasive = 0
        self.by_question = items.groupby("question")["index"].apply(list).to_dict()
        self.references = {
            q: list(dict.fromkeys(a for i in idx for a in items.at[i, "answers"]))
            for q, idx in self.by_question.items()
        }  # every distinct answer of a question
        self.by_anchor: dict[str, list[int]] = {}
        for row in items.itertuples(index=False):
            for qid in row.anchor_qids:
                self.by_anchor.setdefault(qid, []).append(row.index)
        self.by_rule = items.groupby("rule")["index"].apply(list).to_dict()

    def property_values(self, pid: str) -> list[str]:
        """English labels of every value of `pid` in the KG (cached)."""
        if pid not in self._values:
            rows = self.kg.query(
                f"PREFIX wdt: <http://www.wikidata.org/prop/direct/> SELECT DISTINCT ?v WHERE {{ ?s wdt:{pid} ?v }}"
            )
            labels = [self.kg.label(r["v"].qid) if r["v"].qid else r["v"].value for r in rows]
            self._values[pid] = sorted({label for label in labels if label})
        return self._values[pid]

    def _pick(self, candidates: list[int]) -> int | None:
        return int(self.rng.choice(candidates)) if candidates else None

    def pairs(self, item: pd.Series) -> list[dict]:
        reference, anchor = item["answer"], (item["anchor_labels"][0] if len(item["anchor_labels"]) else None)
        references = list(dict.fromkeys([reference, *self.references[item["question"]]]))
        base = {
            "item": item["item"],
            "source": item["source"],
            "question": item["question"],
            "reference": reference,
            "references": references,
        }
        out = [{**base, "kind": "reference", "expected": True, "answer": reference, "note": ""}]
        if item["source"] == "constructed" and anchor:
            worded = second_template(reference, item["subgraph"], anchor)
            if worded:
                out.append({**base, "kind": "second_template", "expected": True, "answer": worded, "note": ""})
        if len(references) > 1:
            out.append(
                {
                    **base,
                    "kind": "other_valid_cause",
                    "expected": True,
                    "answer": references[1],
                    "note": "another answer of the same question",
                }
            )
        same_entity = sorted(
            {
                i
                for q in item["anchor_qids"]
                for i in self.by_anchor.get(q, [])
                if self.items.at[i, "rule"] != item["rule"] and self.items.at[i, "question"] != item["question"]
            }
        )
        chosen = self._pick(same_entity)
        if chosen is not None:
            other = self.items.loc[chosen]
            out.append(
                {
                    **base,
                    "kind": "other_rule_same_entity",
                    "expected": False,
                    "answer": other["answer"],
                    "note": f"answer of {other['item']} (rule {other['rule_id']})",
                }
            )
        swapped = self._swap(item, anchor)
        if swapped:
            out.append({**base, "kind": "entity_swap", "expected": False, "answer": swapped[0], "note": swapped[1]})
        out.append(
            {
                **base,
                "kind": "question_restated",
                "expected": False,
                "answer": restate_question(item["question"], anchor),
                "note": "",
            }
        )
        evasive = self.evasive[self._n_evasive % len(self.evasive)]
        self._n_evasive += 1
        out.append({**base, "kind": "evasive", "expected": False, "answer": evasive, "note": ""})
        return out

    def _swap(self, item: pd.Series, anchor: str | None) -> tuple[str, str] | None:
        """(reference with its key value or entity swapped, what was swapped) or None."""
        reference = item["answer"]
        if item["source"] == "constructed":
            for fact in item["subgraph"]:
                old = fact["value_label"]
                options = [
                    v for v in self.property_values(fact["property"]) if v != old and not _contains(reference, v)
                ]
                if old and options:
                    new = str(self.rng.choice(options))
                    text = swap_phrase(reference, old, new)
                    if text:
                        return text, f"{fact['property']} value {old} -> {new} (KG)"
            return None
        if not anchor:
            return None
        peers = self.items.loc[self.by_rule[item["rule"]]]
        labels = sorted(
            {
                lab
                for labels in peers["anchor_labels"]
                for lab in labels
                if lab != anchor and not _contains(reference, lab)
            }
        )
        if not labels:
            return None
        new = str(self.rng.choice(labels))
        text = swap_phrase(reference, anchor, new)
        return (text, f"anchor {anchor} -> {new} (another anchor of the rule)") if text else None


def _items(published: pd.DataFrame | None, constructed: pd.DataFrame | None) -> pd.DataFrame:
    """Both sources as one item table: item, source, question, answer, rule, rule_id, anchors, subgraph."""
    parts = []
    if published is not None:
        parts.append(
            pd.DataFrame(
                {
                    "item": published["item_id"],
                    "source": "published",
                    "question": published["question"],
                    "answers": published["answers"].map(list),
                    "rule": published["rule"],
                    "rule_id": published["rule_id"].astype(str),
                    "anchor_qids": published["anchor_qids"].map(list),
                    "anchor_labels": published["anchor_labels"].map(list),
                    "subgraph": [[] for _ in range(len(published))],
                }
            )
        )
    if constructed is not None:
        parts.append(
            pd.DataFrame(
                {
                    "item": constructed["question_id"],
                    "source": "constructed",
                    "question": constructed["question"],
                    "answers": constructed["answers"].map(list),
                    "rule": constructed["rule"],
                    "rule_id": constructed["rule_id"],
                    "anchor_qids": constructed["anchor_qids"].map(list),
                    "anchor_labels": constructed["anchor_labels"].map(list),
                    "subgraph": constructed["subgraph"].map(list),
                }
            )
        )
    items = pd.concat(parts, ignore_index=True)
    items["answers"] = items["answers"].map(lambda answers: [a for a in answers if a and str(a).strip()])
    items = items[items["answers"].map(bool)].reset_index(drop=True)
    items["answer"] = items["answers"].str[0]
    items["index"] = items.index
    return items


def build_check_set(
    published: pd.DataFrame | None, constructed: pd.DataFrame | None, kg, settings: Mapping, seed: int
) -> tuple[pd.DataFrame, dict]:
    """The labelled pairs and a report (items drawn per pool, pairs per kind).

    `settings`: ``n_constructed``, ``n_published``, ``n_multi_answer`` (items of either source whose question
    has several distinct answers), ``evasive_answers``, ``min_pairs``.
    """
    rng = np.random.default_rng(seed)
    items = _items(published, constructed)
    builder = CheckSetBuilder(items, kg, settings["evasive_answers"], rng)
    multi = items["question"].map(lambda q: len(builder.references[q]) > 1)  # several distinct answers
    anchored = items["anchor_labels"].map(bool)
    pools = {
        "constructed": items[(items["source"] == "constructed") & ~multi & anchored],
        "multi_answer": items[multi & anchored].drop_duplicates("question"),
        "published": items[(items["source"] == "published") & ~multi & anchored],
    }
    wanted = {
        "constructed": settings["n_constructed"],
        "multi_answer": settings["n_multi_answer"],
        "published": settings["n_published"],
    }
    report = {"drawn": {}}
    pairs = []
    for pool, table in pools.items():
        n = min(wanted[pool], len(table))
        chosen = table.iloc[np.sort(rng.choice(len(table), size=n, replace=False))] if n else table.iloc[:0]
        report["drawn"][pool] = {"available": len(table), "wanted": wanted[pool], "drawn": n}
        for _, item in chosen.iterrows():
            pairs.extend(builder.pairs(item))
    check = pd.DataFrame(pairs)
    check.insert(0, "pair_id", [f"p{i:04d}" for i in range(len(check))])
    check = check[CHECK_COLUMNS]
    report["pairs_per_kind"] = check["kind"].value_counts().to_dict()
    report["n_pairs"] = len(check)
    if len(check) < settings["min_pairs"]:
        raise ValueError(
            f"commonwhy_eval.judge_check: {len(check)} pairs < min_pairs {settings['min_pairs']}; "
            f"raise n_constructed / n_published / n_multi_answer ({report['drawn']})"
        )
    return check, report


# --- scoring a judge's verdicts --------------------------------------------------------------------


def _measures(expected: np.ndarray, judged: np.ndarray) -> dict:
    from sklearn.metrics import accuracy_score, balanced_accuracy_score, cohen_kappa_score

    both = len(np.unique(expected)) == 2
    return {
        "accuracy": float(accuracy_score(expected, judged)),
        "balanced_accuracy": float(balanced_accuracy_score(expected, judged)) if both else float("nan"),
        "kappa": float(cohen_kappa_score(expected, judged)) if both else float("nan"),
    }


def _fast_measures(expected: np.ndarray, judged: np.ndarray) -> tuple[float, float, float]:
    """accuracy, balanced accuracy, Cohen's kappa from the 2x2 counts (same values as sklearn; tested)."""
    tp = np.sum(expected & judged)
    tn = np.sum(~expected & ~judged)
    n_pos, n_neg, n = expected.sum(), (~expected).sum(), len(expected)
    accuracy = (tp + tn) / n
    balanced = (tp / n_pos + tn / n_neg) / 2 if n_pos and n_neg else np.nan
    p_yes = judged.sum() / n
    chance = (n_pos / n) * p_yes + (n_neg / n) * (1 - p_yes)
    kappa = (accuracy - chance) / (1 - chance) if n_pos and n_neg and chance < 1 else np.nan
    return accuracy, balanced, kappa


def _bootstrap(expected: np.ndarray, judged: np.ndarray, n_boot: int, level: float, rng) -> dict:
    """Percentile intervals; positives and negatives are resampled separately (both classes kept)."""
    groups = [g for g in (np.flatnonzero(expected), np.flatnonzero(~expected)) if len(g)]
    draws = np.empty((n_boot, 3))
    for b in range(n_boot):
        idx = np.concatenate([rng.choice(g, size=len(g), replace=True) for g in groups])
        draws[b] = _fast_measures(expected[idx], judged[idx])
    alpha = (1 - level) / 2
    out = {}
    for k, name in enumerate(("accuracy", "balanced_accuracy", "kappa")):
        ok = draws[:, k][~np.isnan(draws[:, k])]
        lo, hi = np.quantile(ok, [alpha, 1 - alpha]) if len(ok) else (np.nan, np.nan)
        out[f"{name}_lo"], out[f"{name}_hi"] = float(lo), float(hi)
    return out


def score_check(verdicts: pd.DataFrame, n_bootstrap: int, ci_level: float, seed: int) -> pd.DataFrame:
    """One row per subset: ``all``, each negative type (all positives + that type), each positive type.

    `verdicts` needs ``kind``, ``expected`` and ``judged_yes``. Columns: subset, n_positive, n_negative,
    accuracy, balanced_accuracy, kappa and their ``_lo``/``_hi`` bounds.
    """
    rng = np.random.default_rng(seed)
    positives = verdicts["expected"].astype(bool)
    subsets = {"all": verdicts}
    for kind in NEGATIVE_KINDS:
        if (verdicts["kind"] == kind).any():
            subsets[kind] = verdicts[positives | (verdicts["kind"] == kind)]
    for kind in POSITIVE_KINDS:
        if (verdicts["kind"] == kind).any():
            subsets[kind] = verdicts[verdicts["kind"] == kind]  # recall only: one class
    rows = []
    for name, part in subsets.items():
        expected = part["expected"].to_numpy(bool)
        judged = part["judged_yes"].to_numpy(bool)
        rows.append(
            {
                "subset": name,
                "n_positive": int(expected.sum()),
                "n_negative": int((~expected).sum()),
                **_measures(expected, judged),
                **_bootstrap(expected, judged, n_bootstrap, ci_level, rng),
            }
        )
    return pd.DataFrame(rows)


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


def judge_validity(scores: pd.DataFrame, bar: float, judge: str) -> dict:
    """valid (lower end of the overall balanced accuracy's interval >= bar) and the reason."""
    overall = scores.set_index("subset").loc["all"]
    lower = overall["balanced_accuracy_lo"]
    valid = bool(np.isfinite(lower) and lower >= bar)
    reason = (
        f"judge {judge}: balanced accuracy {overall['balanced_accuracy']:.3f} "
        f"(95% CI lower end {lower:.3f}) on {int(overall['n_positive'] + overall['n_negative'])} check pairs "
        f"{'>=' if valid else '<'} bar {bar:.2f}"
    )
    return {
        "judge": judge,
        "valid": valid,
        "bar": bar,
        "balanced_accuracy": float(overall["balanced_accuracy"]),
        "balanced_accuracy_lo": float(lower),
        "reason": reason,
    }
