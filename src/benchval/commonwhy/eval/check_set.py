"""A labelled check set for the correctness judge, built from the data, the KG and the answering models'
own outputs, labelled by rules (never by a judge). docs/commonwhy-eval.md, "Judge check".

Each pair is (question, references, answer, expected verdict); ``item`` is its question (the unit the
gate's bootstrap resamples) and ``family`` the question's skeleton (its entities and numbers blanked:
"why couldn't X have voted for X?"), of which at most ``max_per_family`` questions are drawn.

Positives (expected Yes), none but ``reference`` in the references' own words:

- ``reference``: the reference itself (a sanity row);
- ``reordered``: the reference's clauses in another order, joined otherwise ("B, and A.");
- ``rule_grounded``: the rule's antecedent grounded on the anchor ("If person A died before 1970, then ..."
  -> "The reason is that Stepan Sapah-Gulian died before 1970."), worded by one of several templates
  taken in turn per family;
- ``kg_reworded``: the question's KG facts worded by one of several templates (taken in turn)
  ("Spain is the country of citizenship of David López García.") plus the reference's clauses that do
  not name the anchor (the rule's commonsense side; constructed questions, which carry their subgraph);
- ``valid_alternative_cause``: the answer of another rule's question about the same anchor whose cause also
  explains this question's event (docs/commonwhy-judge-guidelines.md): a cause of the same kind whose bound
  implies the question's ("died before 1938" for missing a 1999 event), or one that states the reference's
  cause in other words (its cause clause shares most content words with a reference's). True by the other
  item's gold (which the gold audit passed), explaining by the bound.

Negatives (expected No):

- ``other_rule_same_entity``: the answer of another rule's question about the same anchor whose cause does
  not explain this event (a true fact that explains nothing: another kind of cause, or a bound that does not
  imply the question's, "died before 2022" for a 1996 event); those that do are ``valid_alternative_cause``;
- ``wrong_fact``: a false fact: the reference with its KG value swapped for another value of the same
  property (constructed) or its anchor swapped for another anchor of the rule (published), and the
  answering models' own outputs with a claim the KG contradicts (a claim about the anchor naming a
  relation whose KG values for the anchor do not include the one stated);
- ``broken_link``: the reference's own words with the causal link broken (one per question, the ways of
  :data:`BROKEN_LINKS` in turn among those that apply): ``reversed`` (the effect given as the cause of the
  cause: "X died before 1774 because X could not have read Y."), ``negated`` ("Because it is not true that X
  died before 1774."), ``inverted_comparison`` (before/after, greater/less swapped), ``swapped_entity`` (the
  anchor and another entity of the reference trade places). A string matcher that accepts answers made of
  the question's and the reference's words accepts these;
- ``restated_question``: the question turned into an answer ("Because A couldn't have X."), and the
  answering models' own outputs that add nothing to the question (every content word is the question's);
- ``evasive``: an empty or evasive answer (the configured list, chosen in turn).

A model's output that no rule labels is left out (counted in the report). Every pair carries all references
of its question, and the judge's verdict is Yes when it accepts the answer against any of them, as answers are
judged (:func:`~.judge.judge_answers`). The gate that reads the pairs is :mod:`.judge_gate`.
"""

from __future__ import annotations


from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from benchval.commonwhy.eval.check_items import (
    _items,
    anchor_index,
    audit_other_rules,
    check_questions,
    draw_items,
    gold_audit_excluded,
    question_references,
)
from benchval.commonwhy.eval.check_wording import (
    BROKEN_LINKS,
    CHECK_COLUMNS,
    _contains,
    broken_link,
    kg_reworded,
    reordered,
    restate_question,
    restates,
    rule_grounded,
    swap_phrase,
)

log = logging.getLogger(__name__)


class CheckSetBuilder:
    """Builds the check pairs of one drawn question at a time (see the module docstring)."""

    def __init__(self, items: pd.DataFrame, kg, settings: Mapping, rng: np.random.Generator, checker=None):
        self.items, self.kg, self.rng, self.checker = items, kg, rng, checker
        self.evasive = list(settings["evasive_answers"])
        self.n_other_rule = settings["n_other_rule"]
        self._values: dict[str, list[str]] = {}
        self._turn: Counter = Counter()  # templates taken in turn per (family, kind)
        self.removed: list[dict] = []  # (pair, reason) the label audit and the labelling rules left out
        self.references, self.by_anchor = question_references(items), anchor_index(items)
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

    def _turn_of(self, family: str, kind: str) -> int:
        turn = self._turn[(family, kind)]
        self._turn[(family, kind)] += 1
        return turn

    def pairs(self, item: pd.Series, answers: Mapping[str, str] = {}) -> list[dict]:
        """The pairs of one question; `answers`: system -> that system's answer to it."""
        reference, anchor, family = item["answer"], item["anchor"], item["family"]
        references = list(dict.fromkeys([reference, *self.references[item["question"]]]))
        base = {k: item[k] for k in ("item", "family", "source", "question")}
        base.update(reference=reference, references=references)

        def pair(kind, expected, answer, origin="rule", note=""):
            return {**base, "kind": kind, "expected": expected, "answer": answer, "origin": origin, "note": note}

        out = [pair("reference", True, reference)]
        paraphrases = {
            "reordered": reordered(reference),
            "rule_grounded": rule_grounded(item["rule"], anchor, self._turn_of(family, "rule_grounded")),
            "kg_reworded": kg_reworded(reference, item["subgraph"], anchor, self._turn_of(family, "kg_reworded"))
            if item["source"] == "constructed"
            else None,
        }
        out += [pair(kind, True, text) for kind, text in paraphrases.items() if text and text not in references]
        negatives, alternatives = self._other_rule(item, references)
        for answer, note in alternatives:
            out.append(pair("valid_alternative_cause", True, answer, note=note))
        for answer, note in negatives:
            out.append(pair("other_rule_same_entity", False, answer, note=note))
        swapped = self._swap(item, anchor)
        if swapped:
            out.append(pair("wrong_fact", False, swapped[0], note=swapped[1]))
        broken = self._broken(item, anchor, references)
        if broken:
            out.append(pair("broken_link", False, broken[0], note=broken[1]))
        out.append(pair("restated_question", False, restate_question(item["question"], anchor)))
        out.append(pair("evasive", False, self.evasive[self._turn_of("", "evasive") % len(self.evasive)]))
        for system, answer in answers.items():
            labelled = self._label_answer(item, answer, references)
            origin = f"model:{system}"
            if labelled is None:
                self.removed.append(
                    {"item": item["item"], "origin": origin, "answer": answer, "reason": "no rule labels it"}
                )
            else:
                out.append(pair(labelled[0], False, answer, origin, labelled[1]))
        return out

    def _label_answer(self, item: pd.Series, answer: str, references: Sequence[str]) -> tuple[str, str] | None:
        """(kind, why) for a model's answer that a rule labels a negative; None when none does."""
        if not answer.strip() or answer in references:
            return None
        if restates(answer, item["question"]):
            return "restated_question", "every content word is the question's"
        if self.checker is not None:
            contradicted = self.checker.contradicted_claims(answer, set(item["anchor_qids"]))
            if contradicted:
                return "wrong_fact", f"the KG contradicts: {contradicted[0]}"
        return None

    def _other_rule(
        self, item: pd.Series, references: Sequence[str]
    ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """Up to ``n_other_rule`` (answer, note) of other rules' questions about the same anchor whose causes do not
        explain the event (negatives), and up to as many that do (valid alternative causes)."""
        negatives, alternatives = audit_other_rules(self.items, self.by_anchor, item, references)
        alternatives = [(i, why) for i, why in alternatives if self.items.at[i, "answer"] not in references]

        def pick(indices: list[int]) -> list[int]:
            if not indices:
                return []
            return sorted(
                int(i) for i in self.rng.choice(indices, size=min(self.n_other_rule, len(indices)), replace=False)
            )

        why = dict(alternatives)
        chosen_negatives = [self.items.loc[i] for i in pick(negatives)]
        chosen_alternatives = [(self.items.loc[i], why[i]) for i in pick([i for i, _ in alternatives])]
        return (
            [(o["answer"], f"answer of {o['item']} (rule {o['rule_id']})") for o in chosen_negatives],
            [(o["answer"], f"answer of {o['item']} (rule {o['rule_id']}): {w}") for o, w in chosen_alternatives],
        )

    def _broken(self, item: pd.Series, anchor: str | None, references: Sequence[str]) -> tuple[str, str] | None:
        """One broken_link answer: the ways of BROKEN_LINKS in turn (per family), the first that applies."""
        start = self._turn_of("", "broken_link")
        for k in range(len(BROKEN_LINKS)):
            way = BROKEN_LINKS[(start + k) % len(BROKEN_LINKS)]
            text = broken_link(item["answer"], item["question"], anchor, way)
            if text and text not in references:
                return text, f"broken link: {way}"
        return None

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
        peers = self.items.loc[self.by_rule.get(item["rule"], [])]
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


def prepare_check(
    published: pd.DataFrame | None, constructed: pd.DataFrame | None, settings: Mapping, seed: int
) -> tuple[pd.DataFrame, dict]:
    """The check questions the models answer (drawn with the family cap; a seeded ``answer_limit`` of them when
    set) in the sample's layout, and the draw report."""
    items = _items(published, constructed)
    drawn, report = draw_items(items, settings, np.random.default_rng(seed))
    report["gold_audit_excluded"] = gold_audit_excluded(published, constructed)
    questions = check_questions(drawn, question_references(items))
    limit = settings.get("answer_limit")
    if limit is not None and limit < len(questions):
        keep = np.sort(np.random.default_rng([seed, 2]).choice(len(questions), size=limit, replace=False))
        report["answered_by_models"] = {"drawn": len(questions), "answered": limit, "reason": "answer_limit"}
        questions = questions.iloc[keep].reset_index(drop=True)
    return questions, report


def build_check_set(
    published: pd.DataFrame | None,
    constructed: pd.DataFrame | None,
    kg,
    settings: Mapping,
    seed: int,
    model_answers: Mapping[str, pd.DataFrame] | None = None,
    checker=None,
) -> tuple[pd.DataFrame, dict]:
    """The labelled pairs and a report (questions drawn, pairs per kind and origin, what was left out).

    `settings`: ``n_shared_anchor``, ``n_constructed``, ``n_published``, ``max_per_family``, ``n_other_rule``,
    ``evasive_answers``, ``min_pairs``.
    `model_answers`: system -> its answers (``id``, ``answer``) to the check questions (:func:`prepare_check`);
    `checker`: a :class:`~.kg_claims.KGFactChecker` that labels the answers' false facts (None: not labelled).
    """
    items = _items(published, constructed)
    drawn, report = draw_items(items, settings, np.random.default_rng(seed))
    builder = CheckSetBuilder(items, kg, settings, np.random.default_rng([seed, 1]), checker)
    by_item = {
        system: dict(zip(table["id"].str.removeprefix("chk-"), table["answer"].fillna("")))
        for system, table in (model_answers or {}).items()
    }
    pairs = []
    for _, item in drawn.iterrows():
        answers = {system: got[item["item"]] for system, got in by_item.items() if item["item"] in got}
        pairs.extend(builder.pairs(item, answers))
    check = pd.DataFrame(pairs)
    # a model's answer equal to a rule-made one is kept as the model's (a real answer)
    check = check.drop_duplicates(["item", "answer"], keep="last").sort_index().reset_index(drop=True)
    check.insert(0, "pair_id", [f"p{i:04d}" for i in range(len(check))])
    check = check[CHECK_COLUMNS]
    removed = pd.DataFrame(builder.removed, columns=["item", "origin", "answer", "reason"])
    report = {
        "drawn": report,
        "gold_audit_excluded": gold_audit_excluded(published, constructed),
        "n_pairs": len(check),
        "n_questions": int(check["item"].nunique()),
        "pairs_per_kind": check["kind"].value_counts().to_dict(),
        "pairs_per_origin": check["origin"].value_counts().to_dict(),
        "largest_family_share_of_pairs": round(float(check["family"].value_counts(normalize=True).max()), 3),
        "left_out": {
            "n": len(removed),
            "by_reason": removed.groupby(["origin", "reason"]).size().rename("n").reset_index().to_dict("records"),
            "examples": removed.head(20).to_dict("records"),
        },
    }
    if len(check) < settings["min_pairs"]:
        raise ValueError(
            f"commonwhy_eval.judge_check: {len(check)} pairs < min_pairs {settings['min_pairs']}; "
            f"raise n_constructed / n_published / max_per_family ({report['drawn']})"
        )
    return check, report
