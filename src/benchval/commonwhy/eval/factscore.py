"""FActScore against the KG source (Min et al., 2023; CommonWhy §4.2 and Figure 4).

f(answer) = supported atomic claims / checkable atomic claims, reported with its coverage
(checkable / all claims). A KG-only version:

1. **Claims.** The answer is split into atomic claims by an LLM with the claim-split prompt (one claim
   per line starting with "- "; ``factscore.claims: llm`` with a capable ``claim_system``) or, as the
   fallback, by rule: sentences, then clauses joined by "and", "while", "whereas", "but", "so", ";", a
   leading "Because" dropped. The rule cannot split a relative clause ("X, which is in Y"), a list
   ("A and B are German" becomes "A" + "B are German"), or a claim hidden in a participle phrase; it
   splits a causal "so" clause that is one claim.
2. **Entities.** Candidate mentions are word spans that start and end with a capitalised word or a
   number (at most 8 words); each is looked up with the KG source's exact-label search
   (``search_label``); spans inside a longer matched span are dropped.
3. **Relations.** The claim names a relation when it contains a property's label or one of its
   alternative labels (``rdfs:label`` / ``skos:altLabel`` of the KG's declared properties), or a word
   sharing at least 6 leading characters with the head (last) word of one ("citizen" ~ "country of
   citizenship"). Wikidata carries many aliases ("born in", "nationality"); LitWD1K carries none, so
   there only labels and the head-word rule apply.
4. **Support.** A claim is *checkable* when it has a linked entity and names a relation, and
   *supported* when some statement of a linked entity has a named relation as its property and its
   value in the claim (an entity value by label or QID, a date by its year, a number by its digits).
   A statement whose value is its own subject never counts. The paper's Wikipedia fallback for claims
   the KG cannot check is not available offline: those claims lower the coverage, not the score.

Any object with ``search_label``, ``entity_facts``, ``query`` and ``language`` (part 1's
:class:`~benchval.commonwhy.kg.KGSource`) can be the source.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from benchval.commonwhy.namespaces import prefix_header
from benchval.generation.prompts import PromptTemplate, user

log = logging.getLogger(__name__)

MAX_SPAN_WORDS = 8
_CLAUSE_SPLIT = re.compile(r",?\s+(?:and|while|whereas|but|so)\s+|;\s*", re.IGNORECASE)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[^\W_][\w'’.\-]*", re.UNICODE)
_LEADING_BECAUSE = re.compile(r"^\s*because\b[,:]?\s*", re.IGNORECASE)


def split_claims_by_rule(answer: str) -> list[str]:
    """Atomic claims of an answer by sentence and clause boundaries (claims of < 2 words are dropped)."""
    claims = []
    for sentence in _SENTENCE_SPLIT.split(answer.strip()):
        for clause in _CLAUSE_SPLIT.split(_LEADING_BECAUSE.sub("", sentence)):
            clause = _LEADING_BECAUSE.sub("", clause).strip(" .,!?")
            if len(clause.split()) >= 2:
                claims.append(clause)
    return claims


class LLMClaimSplitter:
    """Atomic claims from an LLM with a prompt holding `$answer`; lines starting with '- ' are claims."""

    def __init__(self, generator, template: PromptTemplate, max_new_tokens: int = 96):
        if "answer" not in template.placeholders:
            raise ValueError(f"{template.source}: claim-split prompt lacks $answer")
        self.generator, self.template, self.max_new_tokens = generator, template, max_new_tokens

    def __call__(self, answer: str) -> list[str]:
        text = self.generator.generate(
            [user(self.template.fill(answer=answer))], self.max_new_tokens, first_line=False
        )[0]
        claims = [line.strip()[2:].strip() for line in text.splitlines() if line.strip().startswith("- ")]
        return [c for c in claims if len(c.split()) >= 2] or split_claims_by_rule(answer)


def _is_anchor_word(word: str) -> bool:
    return word[:1].isupper() or word[:1].isdigit()


def candidate_spans(text: str) -> list[str]:
    """Word spans (≤ 8 words) that start and end with a capitalised word or a number, longest first."""
    words = [w.rstrip(".").removesuffix("'s").removesuffix("’s") for w in _WORD.findall(text)]
    spans = set()
    for i, first in enumerate(words):
        if not first or not _is_anchor_word(first):
            continue
        for j in range(i, min(i + MAX_SPAN_WORDS, len(words))):
            if words[j] and _is_anchor_word(words[j]):
                spans.add(" ".join(words[i : j + 1]))
    return sorted(spans, key=lambda s: (-len(s.split()), s))


def _contains(text: str, phrase: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(phrase.lower()) + r"(?!\w)", text.lower()) is not None


@dataclass
class ClaimCheck:
    claim: str
    entities: list[tuple[str, str]]
    supported: bool
    evidence: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)

    @property
    def checkable(self) -> bool:
        """A linked entity and a named relation: the KG can say yes or no."""
        return bool(self.entities) and bool(self.relations)


HEAD_PREFIX = 6  # leading characters a claim word shares with a relation name's head word


def property_names(source) -> dict[str, list[str]]:
    """PID -> lower-cased label and alternative labels of every property the source declares."""
    rows = source.query(
        prefix_header() + "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
        "SELECT ?p ?name WHERE { ?p wikibase:claim ?c . { ?p rdfs:label ?name } UNION "
        f'{{ ?p skos:altLabel ?name }} FILTER(LANG(?name) = "{source.language}") }}'
    )
    names: dict[str, list[str]] = {}
    for row in rows:
        if row["p"].qid:
            names.setdefault(row["p"].qid, []).append(row["name"].value.lower())
    return {pid: sorted(set(n)) for pid, n in names.items()}


def names_relation(claim: str, name: str) -> bool:
    """The claim contains the relation name, or a word sharing HEAD_PREFIX leading characters with its head word."""
    if _contains(claim, name):
        return True
    head = name.split()[-1] if name.split() else ""
    if len(head) < HEAD_PREFIX:
        return False
    return any(w.lower()[:HEAD_PREFIX] == head[:HEAD_PREFIX] for w in _WORD.findall(claim) if len(w) >= HEAD_PREFIX)


class KGFactChecker:
    """Links claims to KG entities and relations and checks them against the entities' statements (cached)."""

    def __init__(self, source):
        self.source = source
        self._search = lru_cache(maxsize=None)(source.search_label)
        self._facts = lru_cache(maxsize=None)(source.entity_facts)
        self.property_names = property_names(source)

    def relations(self, claim: str) -> list[str]:
        """PIDs of the relations the claim names (label, alias or head word)."""
        return sorted(pid for pid, names in self.property_names.items() if any(names_relation(claim, n) for n in names))

    def facts(self, qid: str) -> list:
        """The statements of `qid` (cached)."""
        return self._facts(qid)

    def mentions(self, claim: str) -> list[tuple[str, str]]:
        """(qid, label) of KG entities mentioned in the claim; inner spans of a matched span dropped."""
        found, covered = [], []
        for span in candidate_spans(claim):
            if any(_contains(longer, span) for longer in covered):
                continue
            hits = self._search(span)
            if hits:
                covered.append(span)
                found.extend((qid, span) for qid, _label in hits)
        return sorted(set(found))

    def _value_in_claim(self, fact, claim: str, mentioned: set[str]) -> str | None:
        """The fact's value (or a qualifier value) when the claim mentions it; a statement whose value
        is its own subject (e.g. Spain -country-> Spain) never counts."""
        values = [(fact.value, fact.value_label)] + [(q.value, q.value_label) for q in fact.qualifiers]
        for term, label in values:
            if term.kind == "iri" and term.qid == fact.subject:
                continue
            if term.kind == "iri":
                if term.qid in mentioned or (label and _contains(claim, label)):
                    return label or term.qid
            elif term.datatype and term.datatype.endswith("dateTime"):
                year = term.value.lstrip("+")[:4]
                if year.isdigit() and _contains(claim, str(int(year))):
                    return term.value
            elif term.value and _contains(claim, term.value.split(".")[0].lstrip("+")):
                return term.value
        return None

    def check(self, claim: str) -> ClaimCheck:
        entities = self.mentions(claim)
        relations = self.relations(claim) if entities else []
        mentioned = {qid for qid, _ in entities}
        evidence = []
        for qid, span in entities:
            for fact in self._facts(qid):
                if fact.property not in relations:
                    continue
                value = self._value_in_claim(fact, claim, mentioned - {qid})
                if value is not None:
                    evidence.append(f"{span} [{qid}] {fact.property_label or fact.property} {value}")
        return ClaimCheck(claim, entities, bool(evidence), evidence[:5], relations)


def factscore_answer(answer: str, checker: KGFactChecker, splitter=split_claims_by_rule) -> dict:
    """n_claims, n_checkable, n_supported, n_unlinked (no KG entity), coverage (checkable / claims),
    factscore (supported / checkable; NaN when no claim is checkable) and the claims."""
    checks = [checker.check(claim) for claim in splitter(answer)]
    n, checkable = len(checks), sum(c.checkable for c in checks)
    supported = sum(c.supported for c in checks)
    return {
        "n_claims": n,
        "n_checkable": checkable,
        "n_supported": supported,
        "n_unlinked": sum(not c.entities for c in checks),
        "coverage": checkable / n if n else float("nan"),
        "factscore": supported / checkable if checkable else float("nan"),
        "claims": [
            {
                "claim": c.claim,
                "supported": c.supported,
                "checkable": c.checkable,
                "entities": [q for q, _ in c.entities],
                "relations": c.relations,
                "evidence": c.evidence,
            }
            for c in checks
        ],
    }


FACTSCORE_COLUMNS = [
    "id",
    "correct",
    "n_claims",
    "n_checkable",
    "n_supported",
    "n_unlinked",
    "coverage",
    "factscore",
    "claims",
]


def factscore_table(
    answers: pd.DataFrame, judged: pd.DataFrame, checker: KGFactChecker, splitter=split_claims_by_rule
) -> pd.DataFrame:
    """FActScore of every answer, with `correct` from the judge (the paper reports correct ones only)."""
    merged = answers[["id", "answer"]].merge(judged[["id", "correct"]], on="id", how="left", validate="one_to_one")
    rows = []
    for row in merged.itertuples(index=False):
        result = factscore_answer(row.answer, checker, splitter)
        result["claims"] = json.dumps(result["claims"], ensure_ascii=False)
        rows.append({"id": row.id, "correct": None if pd.isna(row.correct) else bool(row.correct), **result})
    return pd.DataFrame(rows, columns=FACTSCORE_COLUMNS)


REFERENCE_SUMMARY_COLUMNS = [
    "source",
    "split",
    "n_references",
    "n_claims",
    "n_checkable",
    "n_supported",
    "coverage",
    "factscore",
]


def reference_factscore(questions: pd.DataFrame, checker: KGFactChecker, splitter=split_claims_by_rule) -> pd.DataFrame:
    """FActScore of the reference answers themselves, per source and split: the check on the checker.

    The constructed questions' references are worded from KG facts, so their claims should be
    checkable and supported; a low coverage or score there points at the claim splitter or the
    relation matcher, not at a system. Pooled over claims (coverage = checkable / claims,
    FActScore = supported / checkable; NaN when nothing is checkable)."""
    rows = []
    for (source, split), group in questions.groupby(["source", "split"], sort=True):
        results = [factscore_answer(ref, checker, splitter) for refs in group["references"] for ref in refs]
        claims, checkable = sum(r["n_claims"] for r in results), sum(r["n_checkable"] for r in results)
        supported = sum(r["n_supported"] for r in results)
        rows.append(
            {
                "source": source,
                "split": split,
                "n_references": len(results),
                "n_claims": claims,
                "n_checkable": checkable,
                "n_supported": supported,
                "coverage": checkable / claims if claims else float("nan"),
                "factscore": supported / checkable if checkable else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=REFERENCE_SUMMARY_COLUMNS)
