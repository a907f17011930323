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

A model's output that no rule labels is left out (counted in the report); one labelled blind by the guidelines
(:mod:`.check_natural`) is a ``natural_answer`` pair (origin ``blind_label``) with that label. Another rule's
cause that its grounding query never tests labels no pair (:func:`~.check_items.audit_other_rules`). Every pair
carries all references of its question, and the judge's verdict is Yes when it accepts the answer against any of
them, as answers are judged (:func:`~.judge.judge_answers`). The gate that reads the pairs is :mod:`.judge_gate`.
"""

from __future__ import annotations


from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

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
from benchval.commonwhy.eval.check_causes import MAY_EXPLAIN
from benchval.commonwhy.eval.check_natural import KIND, LABELS, ORIGIN, NaturalLabels
from benchval.commonwhy.eval.check_twins import grounded_twins, link_twins
from benchval.commonwhy.eval.check_wording import (
    BROKEN_LINKS,
    CHECK_COLUMNS,
    KG_TEMPLATES,
    RULE_TEMPLATES,
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


class Made(NamedTuple):
    """One pair as a generator made it (the question's columns are added by CheckSetBuilder.pairs)."""

    kind: str
    expected: bool
    answer: str | None
    template: str
    note: str = ""


#: the wording of each broken link (the pairs' ``template``; check_twins words positives the same ways)
BROKEN_TEMPLATE = {
    "reversed": "because_inside",
    "negated": "not_true_that",
    "inverted_comparison": "reference_edited",
    "swapped_entity": "reference_edited",
}


class CheckSetBuilder:
    """Builds the check pairs of one drawn question at a time (see the module docstring)."""

    def __init__(
        self,
        items: pd.DataFrame,
        kg,
        settings: Mapping,
        rng: np.random.Generator,
        checker=None,
        no_label: Callable[[str, str], str | None] | None = None,
        natural: NaturalLabels | None = None,
    ):
        self.items, self.kg, self.rng, self.checker = items, kg, rng, checker
        self.natural = natural if natural is not None else NaturalLabels(None)
        self.no_label = no_label  # why another rule's cause labels no pair (audit_other_rules)
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
        reference = item["answer"]
        references = list(dict.fromkeys([reference, *self.references[item["question"]]]))
        base = {k: item[k] for k in ("item", "family", "source", "question")}
        base.update(reference=reference, references=references, origin="rule")
        negatives, alternatives = self._other_rule(item, references)
        made = [Made("reference", True, reference, "reference")]
        made += self._positives(item, alternatives) + self._negatives(item, references, negatives)
        # None: a generator that does not apply; "" is an answer (the empty evasive one)
        made = [m for m in made if m.answer is not None and (m.kind == "reference" or m.answer not in references)]
        out = [{**base, **m._asdict()} for m in made]
        for system, answer in answers.items():
            blind = self._blind_pair(item, system, answer)
            if blind is not None:
                out += [{**base, **blind._asdict(), "origin": ORIGIN}] if blind.expected is not None else []
                continue
            labelled = self._label_answer(item, answer, references)
            origin = f"model:{system}"
            if labelled is None:
                self.removed.append(
                    {"item": item["item"], "origin": origin, "answer": answer, "reason": "no rule labels it"}
                )
            else:
                made = Made(labelled[0], False, answer, "model_output", labelled[1])
                out.append({**base, **made._asdict(), "origin": origin})
        return out

    def _blind_pair(self, item: pd.Series, system: str, answer: str) -> Made | None:
        """The natural_answer pair of a model's answer labelled blind (check_natural; expected None: labelled not
        checkable, left out and reported), or None when it was not labelled."""
        blind = self.natural.label(f"chk-{item['item']}", system, answer)
        if blind is None:
            return None
        label, why = blind
        if LABELS[label] is None:
            reason = f"labelled blind: not checkable ({why})"
            self.removed.append({"item": item["item"], "origin": ORIGIN, "answer": answer, "reason": reason})
        return Made(KIND, LABELS[label], answer, "model_output", f"answer of {system}; blind label: {why}")

    def _template(self, family: str, purpose: str) -> int:
        """The rule template of `family`'s next grounded cause of `purpose` (each purpose takes them in turn, so
        every template words causes of both labels)."""
        return self._turn_of(family, purpose) % len(RULE_TEMPLATES)

    def _positives(self, item: pd.Series, alternatives: Sequence[tuple]) -> list[Made]:
        """The question's positives but the reference (module docstring; check_twins)."""
        reference, anchor, family = item["answer"], item["anchor"], item["family"]
        k = self._template(family, "rule_grounded")
        out = [
            Made("reordered", True, reordered(reference), "clauses_reversed"),
            Made("rule_grounded", True, rule_grounded(item["rule"], anchor, k), f"rule_template_{k}"),
        ]
        if item["source"] == "constructed":
            k = self._turn_of(family, "kg_reworded") % len(KG_TEMPLATES)
            out.append(
                Made("kg_reworded", True, kg_reworded(reference, item["subgraph"], anchor, k), f"kg_template_{k}")
            )
        for text, template, note in link_twins(reference, item["question"], anchor):
            out.append(Made("reworded_link", True, text, template, note))
        for other, why in alternatives:
            note = f"answer of {other['item']} (rule {other['rule_id']}): {why}"
            out.append(Made("valid_alternative_cause", True, other["answer"], "gold_answer", note))
            if why == MAY_EXPLAIN:  # the other rule's cause, worded as the question's own is
                k = self._template(family, "alternative")
                text = rule_grounded(other["rule"], anchor, k)
                out.append(Made("valid_alternative_cause", True, text, f"rule_template_{k}", f"cause of {note}"))
        return out

    def _negatives(self, item: pd.Series, references: Sequence[str], others: Sequence[pd.Series]) -> list[Made]:
        """The question's negatives but the models' answers (module docstring; check_twins)."""
        anchor, family = item["anchor"], item["family"]
        out = []
        for other in others:
            note = f"answer of {other['item']} (rule {other['rule_id']})"
            out.append(Made("other_rule_same_entity", False, other["answer"], "gold_answer", note))
            k = self._template(family, "other_rule")
            text = rule_grounded(other["rule"], anchor, k)
            out.append(Made("other_rule_same_entity", False, text, f"rule_template_{k}", f"cause of {note}"))
        swapped = self._swap(item, anchor)
        if swapped:
            out.append(Made("wrong_fact", False, swapped[0], "reference_edited", swapped[1]))
        broken = self._broken(item, anchor, references)
        if broken:
            out.append(Made("broken_link", False, broken[0], BROKEN_TEMPLATE[broken[2]], broken[1]))
        twins = grounded_twins(item["rule"], anchor, self._other_anchor(item), self._template(family, "twin"))
        out += [Made(*twin) for twin in twins]
        out.append(Made("restated_question", False, restate_question(item["question"], anchor), "restated_question"))
        evasive = self.evasive[self._turn_of("", "evasive") % len(self.evasive)]
        return out + [Made("evasive", False, evasive, "evasive")]

    def _other_anchor(self, item: pd.Series) -> str | None:
        """Another anchor of the item's rule that neither the question nor the reference names (seeded)."""
        peers = self.items.loc[self.by_rule.get(item["rule"], [])]
        labels = sorted(
            {
                lab
                for labels in peers["anchor_labels"]
                for lab in labels
                if lab != item["anchor"] and not _contains(item["answer"], lab) and not _contains(item["question"], lab)
            }
        )
        return str(self.rng.choice(labels)) if labels else None

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

    def _other_rule(self, item: pd.Series, references: Sequence[str]) -> tuple[list[pd.Series], list[tuple]]:
        """Up to ``n_other_rule`` items of other rules' questions about the same anchor whose causes do not explain
        the event (negatives), and up to as many (item, why) whose causes do (valid alternative causes)."""
        negatives, alternatives, unlabelled = audit_other_rules(
            self.items, self.by_anchor, item, references, self.no_label
        )
        for i, why in unlabelled:
            self.removed.append(
                {"item": item["item"], "origin": "rule", "answer": self.items.at[i, "answer"], "reason": why}
            )
        alternatives = [(i, why) for i, why in alternatives if self.items.at[i, "answer"] not in references]

        def pick(indices: list[int]) -> list[int]:
            if not indices:
                return []
            return sorted(
                int(i) for i in self.rng.choice(indices, size=min(self.n_other_rule, len(indices)), replace=False)
            )

        why = dict(alternatives)
        chosen_negatives = [self.items.loc[i] for i in pick(negatives)]
        return chosen_negatives, [(self.items.loc[i], why[i]) for i in pick([i for i, _ in alternatives])]

    def _broken(self, item: pd.Series, anchor: str | None, references: Sequence[str]) -> tuple[str, str, str] | None:
        """One broken_link answer: the ways of BROKEN_LINKS in turn (per family), the first that applies."""
        start = self._turn_of("", "broken_link")
        for k in range(len(BROKEN_LINKS)):
            way = BROKEN_LINKS[(start + k) % len(BROKEN_LINKS)]
            text = broken_link(item["answer"], item["question"], anchor, way)
            if text and text not in references:
                return text, f"broken link: {way}", way
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
    published: pd.DataFrame | None,
    constructed: pd.DataFrame | None,
    settings: Mapping,
    seed: int,
    no_label: Callable[[str, str], str | None] | None = None,
) -> tuple[pd.DataFrame, dict]:
    """The check questions the models answer (drawn with the family cap; a seeded ``answer_limit`` of them when
    set) in the sample's layout, and the draw report (`no_label`: as :func:`build_check_set`'s)."""
    items = _items(published, constructed)
    drawn, report = draw_items(items, settings, np.random.default_rng(seed), no_label)
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
    no_label: Callable[[str, str], str | None] | None = None,
    natural_labels: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict]:
    """The labelled pairs and a report (questions drawn, pairs per kind and origin, what was left out).

    `settings`: ``n_shared_anchor``, ``n_constructed``, ``n_published``, ``max_per_family``, ``n_other_rule``,
    ``evasive_answers``, ``min_pairs``.
    `model_answers`: system -> its answers (``id``, ``answer``) to the check questions (:func:`prepare_check`);
    `checker`: a :class:`~.kg_claims.KGFactChecker` that labels the answers' false facts (None: not labelled);
    `no_label`: why another rule's cause labels no pair, from the rules' queries
    (:func:`~.check_items.audit_other_rules`);
    `natural_labels`: the models' answers labelled blind (:mod:`.check_natural`; None: none).
    """
    items = _items(published, constructed)
    drawn, report = draw_items(items, settings, np.random.default_rng(seed), no_label)
    natural = NaturalLabels(natural_labels)
    builder = CheckSetBuilder(items, kg, settings, np.random.default_rng([seed, 1]), checker, no_label, natural)
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
    report = _check_set_report(published, constructed, check, report, builder.removed, natural, by_item, drawn)
    if len(check) < settings["min_pairs"]:
        raise ValueError(
            f"commonwhy_eval.judge_check: {len(check)} pairs < min_pairs {settings['min_pairs']}; "
            f"raise n_constructed / n_published / max_per_family ({report['drawn']})"
        )
    return check, report


def _check_set_report(published, constructed, check, drawn_report, removed_rows, natural, by_item, drawn) -> dict:
    """The check set's report: the draw, the gold audit's exclusions, pairs per kind and origin, what was left
    out (with why) and how the blind natural-answer labels joined."""
    removed = pd.DataFrame(removed_rows, columns=["item", "origin", "answer", "reason"])
    return {
        "drawn": drawn_report,
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
        "natural_labels": natural.report(
            {system: {f"chk-{i}": a for i, a in got.items()} for system, got in by_item.items()},
            {f"chk-{i}" for i in drawn["item"]},
        ),
    }
