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

import logging
import re
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

log = logging.getLogger(__name__)

POSITIVE_KINDS = ("reference", "reordered", "rule_grounded", "kg_reworded", "valid_alternative_cause")
NEGATIVE_KINDS = ("other_rule_same_entity", "wrong_fact", "broken_link", "restated_question", "evasive")
#: the ways broken_link answers break the reference's causal link with the reference's own words, taken in turn
BROKEN_LINKS = ("reversed", "negated", "inverted_comparison", "swapped_entity")
_OPPOSITES = {
    "before": "after",
    "after": "before",
    "greater": "less",
    "less": "greater",
    "more": "fewer",
    "fewer": "more",
    "older": "younger",
    "younger": "older",
    "higher": "lower",
    "lower": "higher",
    "larger": "smaller",
    "smaller": "larger",
}
CHECK_COLUMNS = [
    "pair_id",
    "item",
    "family",
    "source",
    "kind",
    "origin",
    "expected",
    "question",
    "reference",
    "references",
    "answer",
    "note",
]
_CLAUSE = re.compile(r",?\s+(?:and|while|whereas|but)\s+", re.IGNORECASE)
_BECAUSE = re.compile(r"^\s*because\s+", re.IGNORECASE)
_RULE = re.compile(r"^\s*if\s+(?:an?\s+)?(?:[a-z]+\s+)?([A-Z])\s+(.+?),\s*then\s+(.+?)\.?\s*$", re.IGNORECASE)
_WORDS = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# words that carry no content of their own: an answer made of these and the question's words restates it
FILLER = frozenset(
    "a an the of to in on at for by with from as is are was were be been being has have had do does did "
    "not no n't never cannot can can't could couldn't would wouldn't should shouldn't will won't must "
    "may might because since so that this it its he she his her they their them him who which what why "
    "there then than also only just very reason due able unable fact case why".split()
)
RULE_TEMPLATES = (
    "Because {anchor} {cause}.",
    "The reason is that {anchor} {cause}.",
    "It is due to the fact that {anchor} {cause}.",
)
KG_TEMPLATES = (
    "{value} is the {property} of {subject}.",
    "{subject}'s {property} is {value}.",
    "{subject} has {value} as {property}.",
)


# --- wording helpers -------------------------------------------------------------------------------


def _contains(text: str, phrase: str) -> bool:
    return bool(phrase) and re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text) is not None


def _sentence(text: str) -> str:
    text = text.strip(" .")
    return text[:1].upper() + text[1:] + "." if text else ""


def content_words(text: str) -> set[str]:
    """Porter stems of the lower-cased words outside FILLER ("died" ~ "die", "attended" ~ "attend")."""
    from nltk.stem.porter import PorterStemmer

    stem = PorterStemmer().stem
    return {stem(w.lower()) for w in _WORDS.findall(text) if w.lower() not in FILLER}


def question_family(question: str, labels: Sequence[str]) -> str:
    """The question's skeleton: anchor labels, capitalised words (but the first) and numbers blanked."""
    text = question
    for label in sorted((lab for lab in labels if lab), key=len, reverse=True):
        text = text.replace(label, "X")
    words = text.split()
    blanked = [w if i == 0 or not (w[:1].isupper() or w[:1].isdigit()) else "X" for i, w in enumerate(words)]
    return re.sub(r"X(?:\s+X)+", "X", " ".join(blanked)).lower()


def restate_question(question: str, anchor: str | None) -> str:
    """The question as an answer: "Why couldn't A have X?" -> "Because A couldn't have X."."""
    body = re.sub(r"^\s*why\s+", "", question.strip(), flags=re.IGNORECASE).rstrip(" ?")
    if anchor:
        match = re.match(r"^(\S+)\s+" + re.escape(anchor) + r"\b(.*)$", body)
        if match:
            return f"Because {anchor} {match.group(1)}{match.group(2)}."
    return f"Because {body}."


def restates(answer: str, question: str) -> bool:
    """The answer adds nothing to the question: it has content words and each is one of the question's."""
    words = content_words(answer)
    return bool(words) and words <= content_words(question)


def clauses(reference: str) -> list[str]:
    return [c.strip(" .") for c in _CLAUSE.split(_BECAUSE.sub("", reference.strip())) if c.strip(" .")]


def reordered(reference: str) -> str | None:
    """The reference's clauses, last first, joined by "and" ("Because A, while B." -> "B, and A.")."""
    parts = clauses(reference)
    if len(parts) < 2:
        return None
    return _sentence(", and ".join(parts[::-1]))


def rule_cause(rule: str) -> str | None:
    """The antecedent of "If <var> <cause>, then ..." with only that variable (None otherwise)."""
    match = _RULE.match(rule or "")
    if not match:
        return None
    variable, cause = match.group(1), match.group(2)
    if re.search(r"\b(?!" + variable + r"\b)[A-Z]\b", cause):
        return None  # another variable the question does not ground
    return cause


def rule_grounded(rule: str, anchor: str, template: int) -> str | None:
    """The rule's cause grounded on the anchor, worded by RULE_TEMPLATES[template]."""
    cause = rule_cause(rule)
    if not cause or not anchor:
        return None
    variable = _RULE.match(rule).group(1)
    cause = re.sub(r"\b" + variable + r"\b", anchor, cause)
    return RULE_TEMPLATES[template % len(RULE_TEMPLATES)].format(anchor=anchor, cause=cause)


def kg_reworded(reference: str, facts: Sequence[Mapping], anchor: str, template: int) -> str | None:
    """The facts worded by KG_TEMPLATES[template] plus the reference's clauses that do not name the anchor."""
    pattern = KG_TEMPLATES[template % len(KG_TEMPLATES)]
    stated = [
        pattern.format(
            subject=f["subject_label"] or f["subject"],
            property=f["property_label"] or f["property"],
            value=f["value_label"] or f["value"],
        )
        for f in facts
        if f.get("value_label") or f.get("value")
    ]
    if not stated:
        return None
    rest = [_sentence(c) for c in clauses(reference) if not _contains(c, anchor)]
    return " ".join(stated + rest)


def second_template(reference: str, facts: Sequence[Mapping], anchor: str) -> str | None:
    """The facts as "<subject>'s <property> is <value>." plus the reference's clauses without the anchor."""
    return kg_reworded(reference, facts, anchor, 1)


def swap_phrase(text: str, old: str, new: str) -> str | None:
    """`text` with every whole-word `old` replaced by `new` (None when `old` does not occur)."""
    if not _contains(text, old) or old == new:
        return None
    return re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", new, text)


# wordings of one cause that the rules spell differently ("practices Islam", "believed in Islam", "has the religion
# or worldview of Islam"; "a bacterium", "a bacteria"; "a computer software", "a software"), read as one
CAUSE_SYNONYMS = (
    (r"\b(?:practices|practiced|believed in|believes in|ha[sd] (?:the )?religion or worldview of)\b", "religion"),
    (r"\bbacterium\b", "bacteria"),
    (r"\bcomputer software\b", "software"),
)


def normalise_cause(text: str) -> str:
    """`text` with the wordings of :data:`CAUSE_SYNONYMS` made one."""
    for pattern, replacement in CAUSE_SYNONYMS:
        text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)
    return text


_BOUND = re.compile(r"\b(before|after)\s+(?:[\w ]{0,20}?\s)?(\d{3,4})\b", re.IGNORECASE)


def may_explain(other_rule: str, rule: str) -> bool:
    """Another rule's cause may also explain this rule's effect: the causes share a skeleton (numbers blanked,
    "died before N") and, for a bound ("before N", "after N"), the other's bound implies this one's (died before
    1970 implies died before 1996; died before 2022 does not). Skeletons alike without a bound to compare: may
    explain (kept out)."""
    a, b = rule_cause(other_rule), rule_cause(rule)
    blank = lambda s: re.sub(r"\d+", "N", normalise_cause(s).lower()).strip()  # noqa: E731
    if not (a and b) or blank(a) != blank(b):
        return False
    bound_a, bound_b = _BOUND.findall(a), _BOUND.findall(b)
    if len(bound_a) != 1 or len(bound_b) != 1 or bound_a[0][0].lower() != bound_b[0][0].lower():
        return True
    (direction, year_a), (_, year_b) = bound_a[0], bound_b[0]
    return int(year_a) <= int(year_b) if direction.lower() == "before" else int(year_a) >= int(year_b)


_RELATIVE = re.compile(r",\s*(?:which|who|whose|as)\b.*$", re.IGNORECASE)


def core_clause(clause: str) -> str:
    """A clause without its trailing relative clause ("X is a bacteria, which cannot ..." -> "X is a bacteria")."""
    return _RELATIVE.sub("", clause).strip(" .")


def shares_cause(answer: str, references: Sequence[str], anchor: str, threshold: float = 0.5) -> bool:
    """A clause of `answer` naming the anchor shares >= threshold of its content words (Jaccard; the anchor's
    own words and trailing relative clauses left out) and all its numbers with one of the references' clauses
    naming the anchor ("died before 1900" is not "died before 1850")."""
    name = content_words(anchor)
    words = lambda c: content_words(normalise_cause(core_clause(c))) - name  # noqa: E731
    mine = [words(c) for c in clauses(answer) if _contains(c, anchor)]
    theirs = [words(c) for r in references for c in clauses(r) if _contains(c, anchor)]
    numbers = lambda words: {w for w in words if w.isdigit()}  # noqa: E731
    return any(
        a and b and numbers(a) == numbers(b) and len(a & b) / len(a | b) >= threshold for a in mine for b in theirs
    )


# --- drawing the questions -------------------------------------------------------------------------


def _items(published: pd.DataFrame | None, constructed: pd.DataFrame | None) -> pd.DataFrame:
    """Both sources as one item table (item, source, split, question, answers, rule, anchors, subgraph, family)."""
    parts = []
    for table, source, id_column in ((published, "published", "item_id"), (constructed, "constructed", "question_id")):
        if table is None:
            continue
        parts.append(
            pd.DataFrame(
                {
                    "item": table[id_column].astype(str),
                    "source": source,
                    "split": table["split"],
                    "question": table["question"],
                    "answers": table["answers"].map(list),
                    "rule": table["rule"].fillna(""),
                    "rule_id": table["rule_id"].astype(str),
                    "reasoning_category": table["reasoning_category"],
                    "popularity": table["popularity"].astype("int64"),
                    "anchor_qids": table["anchor_qids"].map(list),
                    "anchor_labels": table["anchor_labels"].map(list),
                    "subgraph": table["subgraph"].map(list) if "subgraph" in table else [[] for _ in range(len(table))],
                    "audit_reasons": table["audit_reasons"].map(list),
                }
            )
        )
    items = pd.concat(parts, ignore_index=True)
    # the gold audit's flagged items never enter the check set (their gold may be false), nor serve as others
    items = items[~items["audit_reasons"].map(bool)].reset_index(drop=True)
    items["answers"] = items["answers"].map(lambda answers: [a for a in answers if a and str(a).strip()])
    items = items[items["answers"].map(bool)].reset_index(drop=True)
    items["answer"] = items["answers"].str[0]
    items["anchor"] = items["anchor_labels"].map(lambda labels: labels[0] if labels else None)
    items["family"] = [question_family(q, labels) for q, labels in zip(items["question"], items["anchor_labels"])]
    items["index"] = items.index
    return items


def gold_audit_excluded(published: pd.DataFrame | None, constructed: pd.DataFrame | None) -> dict:
    """Items of each table the gold audit flagged (left out of the check set), per reason."""
    out = {}
    for source, table in (("published", published), ("constructed", constructed)):
        if table is not None:
            names = table["audit_reasons"].map(lambda rs: sorted({r.split(":", 1)[0] for r in rs}))
            out[source] = {
                "items": int(names.map(bool).sum()),
                "per_reason": {str(k): int(v) for k, v in names.explode().dropna().value_counts().items()},
            }
    return out


def question_references(items: pd.DataFrame) -> dict[str, list[str]]:
    """Question text -> every distinct answer of its items."""
    by_question = items.groupby("question")["index"].apply(list)
    return {q: list(dict.fromkeys(a for i in idx for a in items.at[i, "answers"])) for q, idx in by_question.items()}


def anchor_index(items: pd.DataFrame) -> dict[str, list[int]]:
    """Anchor QID -> the items about it."""
    index: dict[str, list[int]] = {}
    for row in items.itertuples(index=False):
        for qid in row.anchor_qids:
            index.setdefault(qid, []).append(row.index)
    return index


def audit_other_rules(
    items: pd.DataFrame, by_anchor: Mapping[str, list[int]], item: pd.Series, references: Sequence[str]
) -> tuple[list[int], list[tuple[int, str]]]:
    """Items of another rule and question about the same anchor, labelled by the guidelines: (those whose
    answer does not explain `item`'s event: negatives, [(index, why it explains): valid alternative causes])."""
    candidates = sorted(
        {
            i
            for q in item["anchor_qids"]
            for i in by_anchor.get(q, [])
            if items.at[i, "rule"] != item["rule"] and items.at[i, "question"] != item["question"]
        }
    )
    negatives, alternatives = [], []
    for i in candidates:
        other = items.loc[i]
        if may_explain(other["rule"], item["rule"]):
            alternatives.append((i, "a cause of the same kind whose bound implies the question's"))
        elif shares_cause(other["answer"], references, item["anchor"]):
            alternatives.append((i, "states the reference's cause in other words"))
        else:
            negatives.append(i)
    return negatives, alternatives


def _cause_and_effect(reference: str, question: str, anchor: str | None) -> tuple[str, str] | None:
    """(the reference's first cause clause, the question's event as a statement), None when either is empty."""
    parts = clauses(reference)
    effect = restate_question(question, anchor).removeprefix("Because ").rstrip(".")
    return (parts[0], effect) if parts and effect else None


def broken_link(reference: str, question: str, anchor: str | None, way: str) -> str | None:
    """The reference's words with the causal link broken in `way` (:data:`BROKEN_LINKS`); None when it
    does not apply."""
    parts = _cause_and_effect(reference, question, anchor)
    if parts is None:
        return None
    cause, effect = parts
    if way == "reversed":  # the event given as the cause of the cause
        return _sentence(f"{core_clause(cause)} because {effect}")
    if way == "negated":
        return f"Because it is not true that {cause}."
    if way == "inverted_comparison":
        pattern = r"\b(" + "|".join(_OPPOSITES) + r")\b"
        if not re.search(pattern, reference):
            return None
        return re.sub(pattern, lambda m: _OPPOSITES[m.group(1)], reference, count=1)
    if way == "swapped_entity" and anchor:
        others = [s for s in _names(reference) if s != anchor and anchor not in s and s not in anchor]
        if not others or not _contains(reference, anchor):
            return None
        other = others[0]
        text = reference.replace(anchor, "\0").replace(other, anchor).replace("\0", other)
        return text if text != reference else None
    return None


def _names(text: str) -> list[str]:
    """Runs of capitalised words after the first word (entity names), longest first."""
    words = text.split()[1:]
    runs, current = [], []
    for word in words + [""]:
        clean = word.strip(".,;:")
        if clean[:1].isupper() and clean.lower() not in FILLER:
            current.append(clean)
        else:
            if current:
                runs.append(" ".join(current))
            current = []
    return sorted(set(runs), key=lambda r: (-len(r), r))


def draw_items(items: pd.DataFrame, settings: Mapping, rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    """Seeded draw of anchored questions (one item per question text): first ``n_shared_anchor`` whose anchor
    has another rule's question that survives the label audit (so that ``other_rule_same_entity`` has pairs),
    then ``n_constructed`` and ``n_published`` others; at most ``max_per_family`` per question family over all
    pools. The report says what each pool held and what the cap skipped."""
    anchored = items[items["anchor"].notna()].drop_duplicates("question")
    references, by_anchor = question_references(items), anchor_index(items)
    shared = [
        row["index"]
        for _, row in anchored.iterrows()
        if len(by_anchor.get(row["anchor_qids"][0], [])) > 1
        and any(audit_other_rules(items, by_anchor, row, references[row["question"]]))
    ]
    pools = {
        "shared_anchor": anchored.loc[shared],
        "constructed": anchored[anchored["source"] == "constructed"],
        "published": anchored[anchored["source"] == "published"],
    }
    per_family: Counter = Counter()
    chosen: list[int] = []
    report = {}
    for pool, table in pools.items():
        wanted, taken, capped = settings[f"n_{pool}"], 0, 0
        for position in rng.permutation(len(table)):
            if taken == wanted:
                break
            row = table.iloc[position]
            if row["index"] in chosen:
                continue
            if per_family[row["family"]] >= settings["max_per_family"]:
                capped += 1
                continue
            per_family[row["family"]] += 1
            chosen.append(row["index"])
            taken += 1
        report[pool] = {"available": len(table), "wanted": wanted, "drawn": taken, "skipped_by_family_cap": capped}
    drawn = items.loc[sorted(chosen)]
    report["families"] = int(drawn["family"].nunique())
    report["largest_family"] = int(drawn["family"].value_counts().max()) if len(drawn) else 0
    return drawn, report


def check_questions(drawn: pd.DataFrame, references: Mapping[str, list[str]]) -> pd.DataFrame:
    """The drawn questions in the evaluation sample's layout (answered by the configured models)."""
    return pd.DataFrame(
        {
            "id": "chk-" + drawn["item"],
            "source": drawn["source"],
            "split": drawn["split"],
            "question": drawn["question"],
            "references": [references[q] for q in drawn["question"]],
            "rule": drawn["rule"],
            "reasoning_category": drawn["reasoning_category"],
            "popularity": drawn["popularity"],
            "anchor_qids": drawn["anchor_qids"],
            "item": drawn["item"],
        }
    ).reset_index(drop=True)


# --- building the pairs ----------------------------------------------------------------------------


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


# --- the gate: every type read, intervals from a bootstrap over questions ---------------------------


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
    rng = np.random.default_rng(seed)
    items, item_of = np.unique(verdicts["item"].astype(str).to_numpy(), return_inverse=True)
    expected = verdicts["expected"].to_numpy(bool)
    agree = verdicts["judged_yes"].to_numpy(bool) == expected
    weights = question_weights(len(items), n_bootstrap, rng)

    def per_question(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = np.bincount(item_of[mask], minlength=len(items)).astype(float)
        k = np.bincount(item_of[mask & agree], minlength=len(items)).astype(float)
        return n, k

    pos_n, pos_k = per_question(expected)
    neg_n, neg_k = per_question(~expected)
    accuracy, balanced, kappa = _measures_from_counts(pos_k.sum(), pos_n.sum(), neg_k.sum(), neg_n.sum())
    draws = _measures_from_counts(weights @ pos_k, weights @ pos_n, weights @ neg_k, weights @ neg_n)
    pooled = {"accuracy": accuracy, "balanced_accuracy": balanced, "kappa": kappa}
    for name, values in zip(pooled.copy(), draws):
        pooled[f"{name}_lo"], pooled[f"{name}_hi"] = _interval(values, ci_level)
    rows = [
        {
            "subset": "all",
            "role": "pooled",
            "measure": "balanced accuracy",
            "n_pairs": len(verdicts),
            "n_questions": len(items),
            "n_positive": int(pos_n.sum()),
            "n_negative": int(neg_n.sum()),
            "rate": float(balanced),
            "rate_lo": pooled["balanced_accuracy_lo"],
            "rate_hi": pooled["balanced_accuracy_hi"],
            **{k: float(v) for k, v in pooled.items()},
            "read": bool(min(pos_n.sum(), neg_n.sum()) >= min_pairs_per_type),
            "floor": bar,
        }
    ]
    kinds = verdicts["kind"].to_numpy()
    subsets = [("positive", "positive", expected, "")] if expected.any() else []
    subsets += [("negative", "negative", ~expected, "")] if (~expected).any() else []
    for role, role_kinds in (("positive", POSITIVE_KINDS), ("negative", NEGATIVE_KINDS)):
        present = [kind for kind in role_kinds if (kinds == kind).any()]
        subsets += [(kind, role, kinds == kind, "") for kind in present]
        # the pooling rule: the kinds of a role with fewer than min_pairs_per_type pairs are read together
        small = [kind for kind in present if (kinds == kind).sum() < min_pairs_per_type]
        if len(small) > 1:
            subsets.append((f"pooled_{role}", role, np.isin(kinds, small), ";".join(small)))
    for name, role, mask, pooled in subsets:
        n, k = per_question(mask)
        with np.errstate(invalid="ignore", divide="ignore"):
            lo, hi = _interval((weights @ k) / (weights @ n), ci_level)
        rows.append(
            {
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
                "read": bool(n.sum() >= min_pairs_per_type),
                "floor": floor,
                "pooled_kinds": pooled,
            }
        )
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
