"""Atomic claims of an answer and their check against the KG source: what FActScore (.factscore), the KGR
baseline and the judge's check set share. A KG-only version of FActScore's claim check:

1. **Claims.** The answer is split into atomic claims by an LLM with the claim-split prompt (one claim
   per line starting with "- "; ``factscore.claims: llm`` with a capable ``claim_system``) or, as the
   fallback, by rule: sentences, then clauses joined by "and", "while", "whereas", "but", "so", ";", a
   leading "Because" dropped. The rule cannot split a relative clause ("X, which is in Y"), a list
   ("A and B are German" becomes "A" + "B are German"), or a claim hidden in a participle phrase; it
   splits a causal "so" clause that is one claim.
2. **Entities.** Candidate mentions are named by an LLM with the entity prompt (one name per line starting
   with "- "; ``factscore.entities: llm`` with the ``claim_system``, as the authors' KGR extracts entities) or,
   as the fallback, by rule: word spans that start and end with a capitalised word or a number (at most 8
   words). A name the LLM gives that the claim does not contain is dropped (the checker links what the claim
   says, not what the model adds). Each mention is looked up with the KG source's exact-label search
   (``search_label``); spans inside a longer matched span are dropped.
3. **Relations** (:class:`RelationMatcher`, shared with the KGR baseline). The claim names a relation when
   it contains a property's label or one of its alternative labels (``rdfs:label`` / ``skos:altLabel`` of the
   KG's declared properties, plus the common English phrasings of :data:`EXTRA_ALIASES` for the properties the
   KG declares: "born in", "citizen of", "took place in", ...), or a word sharing at least 6 leading characters
   with the head (last) word of a label ("citizen" ~ "country of citizenship").
4. **Subject.** The claim's subject is its first linked mention (the entity the claim is about); only the
   subject's statements can support or contradict it ("Tour Alpha took place in France" is about Tour Alpha,
   and France's own statements say nothing about it). When a name the KG does not know comes first, the claim
   has no subject: by rule, a run of capitalised words before the first linked mention; with LLM entities, the
   first name the LLM gave (by its place in the claim) that the KG cannot link.
5. **Support.** A claim is *checkable* when it has a linked subject and names a relation. A positive claim is
   *supported* when a statement of the subject has a named relation as its property and its value in the claim
   (an entity value by label or QID, a date by its year, a number by its digits; a statement whose value is its
   own subject never counts), and *contradicted* when the subject has statements of a named relation of the
   kind of value the claim states (an entity, a year) and none has the claim's value. A **negated or
   contrastive** claim ("not", "never", "n't", "unlike", "rather than", "instead of", ...) is never supported
   by a positive triple: it is contradicted when a statement has the value it denies, and supported when the
   subject has statements of the relation and none has that value (the KG's statements of that relation taken
   as complete). The paper's Wikipedia fallback for claims the KG cannot check is not available offline:
   those claims lower the coverage, not the score.

Any object with ``search_label``, ``entity_facts``, ``query`` and ``language`` (part 1's
:class:`~benchval.commonwhy.kg.KGSource`) can be the source.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any


from benchval.commonwhy.eval.settings import reads_with_llm
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


class LLMEntityExtractor:
    """Entity names of a claim from an LLM with a prompt holding `$claim`; lines starting with '- ' are names.

    Only names the claim contains are kept (case-insensitively, as whole words), longest first; a reply
    that keeps none falls back to the rule's :func:`candidate_spans`. One call per distinct claim (cached);
    :attr:`counts` says how many replies were used, how many names were dropped and how many fell back."""

    def __init__(self, generator, template: PromptTemplate, max_new_tokens: int = 48):
        if "claim" not in template.placeholders:
            raise ValueError(f"{template.source}: entity prompt lacks $claim")
        self.generator, self.template, self.max_new_tokens = generator, template, max_new_tokens
        self._names: dict[str, list[str]] = {}
        self.counts = {"claims": 0, "names_kept": 0, "names_not_in_claim": 0, "fell_back_to_rule": 0}

    def __call__(self, claim: str) -> list[str]:
        if claim not in self._names:
            self._names[claim] = self._extract(claim)
        return self._names[claim]

    def _extract(self, claim: str) -> list[str]:
        reply = self.generator.generate([user(self.template.fill(claim=claim))], self.max_new_tokens, first_line=False)[
            0
        ]
        named = [line.strip()[2:].strip(" .,;:") for line in reply.splitlines() if line.strip().startswith("- ")]
        kept = list(dict.fromkeys(name for name in named if name and _contains(claim, name)))
        self.counts["claims"] += 1
        self.counts["names_kept"] += len(kept)
        self.counts["names_not_in_claim"] += len([name for name in named if name]) - len(kept)
        if not kept:
            self.counts["fell_back_to_rule"] += 1
            return candidate_spans(claim)
        return sorted(kept, key=lambda name: (-len(name.split()), name))


def claim_reading(factscore: Mapping, llm: Callable[[], Any]) -> tuple[Callable, Callable]:
    """The claim splitter and the entity namer the ``factscore`` settings ask for: by rule, or by the LLM
    that ``llm()`` loads (called once, and only when one of the two is ``llm``)."""
    splitter, entity_spans = split_claims_by_rule, candidate_spans
    if reads_with_llm(factscore):
        generator = llm()
        if factscore["claims"] == "llm":
            splitter = LLMClaimSplitter(generator, PromptTemplate.from_file(factscore["prompt"], required={"answer"}))
        if factscore["entities"] == "llm":
            template = PromptTemplate.from_file(factscore["entity_prompt"], required={"claim"})
            entity_spans = LLMEntityExtractor(generator, template)
    return splitter, entity_spans


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


NEGATION = re.compile(
    r"(?<!\w)(?:not|never|no longer|neither|nor|cannot|unlike|rather than|instead of|except|other than)(?!\w)"
    r"|n['’]t(?!\w)",
    re.IGNORECASE,
)
# common English phrasings of Wikidata properties, used with the KG's own labels and aliases for the
# properties the KG declares (LitWD1K carries no aliases; Wikidata has most of these as skos:altLabel)
EXTRA_ALIASES = {
    "P19": ["born in", "birthplace", "was born"],
    "P569": ["born in", "born on", "was born", "birth", "born before", "born after"],
    "P20": ["died in", "place of death"],
    "P570": ["died in", "died on", "died before", "died after", "death"],
    "P27": ["citizen of", "citizenship", "nationality", "national of", "is from", "was from", "comes from", "citizen"],
    "P106": ["occupation", "profession", "works as", "worked as"],
    "P17": ["took place in", "takes place in", "held in", "located in", "is in", "was in", "country"],
    "P585": ["occurred in", "took place in", "happened in", "held in"],
    "P131": ["located in", "is in", "was in"],
    "P276": ["located in", "took place in", "held in"],
    "P551": ["lives in", "lived in", "resides in", "resided in"],
    "P140": ["practices", "religion"],
    "P1412": ["speaks", "spoke", "language"],
    "P69": ["studied at", "enrolled at", "graduated from", "educated at"],
    "P1344": ["participated in", "took part in", "competed in"],
    "P2522": ["won", "winner of"],
    "P3602": ["candidate in", "candidate for", "ran in", "ran for"],
    "P39": ["served as", "position"],
    "P463": ["member of"],
    "P1532": ["rides for", "competes for"],
}


# nationality adjectives -> the country's English label: "a Mexican footballer" states country of citizenship
# (P27) Mexico. Built in (LitWD1K has no demonym statements, P1549); the countries of the CommonWhy rules and of
# LitWD1K's riders, and their neighbours. A claim may name a country the KG does not have as an entity.
DEMONYMS = {
    "Afghan": "Afghanistan",
    "Albanian": "Albania",
    "Algerian": "Algeria",
    "American": "United States of America",
    "Argentine": "Argentina",
    "Argentinian": "Argentina",
    "Australian": "Australia",
    "Austrian": "Austria",
    "Belgian": "Belgium",
    "Bolivian": "Bolivia",
    "Brazilian": "Brazil",
    "British": "United Kingdom",
    "Bulgarian": "Bulgaria",
    "Canadian": "Canada",
    "Chadian": "Chad",
    "Chilean": "Chile",
    "Chinese": "China",
    "Colombian": "Colombia",
    "Costa Rican": "Costa Rica",
    "Croatian": "Croatia",
    "Cuban": "Cuba",
    "Czech": "Czech Republic",
    "Danish": "Denmark",
    "Dutch": "Netherlands",
    "Ecuadorian": "Ecuador",
    "Egyptian": "Egypt",
    "English": "England",
    "Eritrean": "Eritrea",
    "Estonian": "Estonia",
    "Ethiopian": "Ethiopia",
    "Finnish": "Finland",
    "French": "France",
    "German": "Germany",
    "Greek": "Greece",
    "Hungarian": "Hungary",
    "Indian": "India",
    "Indonesian": "Indonesia",
    "Iranian": "Iran",
    "Iraqi": "Iraq",
    "Irish": "Ireland",
    "Israeli": "Israel",
    "Italian": "Italy",
    "Japanese": "Japan",
    "Kazakh": "Kazakhstan",
    "Korean": "South Korea",
    "Latvian": "Latvia",
    "Lebanese": "Lebanon",
    "Lithuanian": "Lithuania",
    "Luxembourgish": "Luxembourg",
    "Mexican": "Mexico",
    "Moroccan": "Morocco",
    "Norwegian": "Norway",
    "Pakistani": "Pakistan",
    "Paraguayan": "Paraguay",
    "Persian": "Iran",
    "Peruvian": "Peru",
    "Polish": "Poland",
    "Portuguese": "Portugal",
    "Romanian": "Romania",
    "Russian": "Russia",
    "Rwandan": "Rwanda",
    "Scottish": "Scotland",
    "Slovak": "Slovakia",
    "Slovenian": "Slovenia",
    "South African": "South Africa",
    "Spanish": "Spain",
    "Sudanese": "Sudan",
    "Swedish": "Sweden",
    "Swiss": "Switzerland",
    "Turkish": "Turkey",
    "Ukrainian": "Ukraine",
    "Uruguayan": "Uruguay",
    "Uzbek": "Uzbekistan",
    "Venezuelan": "Venezuela",
    "Welsh": "Wales",
}
_PERSON_NOUNS = (
    "footballer|cyclist|rider|racer|player|athlete|citizen|national|politician|writer|author|actor|actress|singer|"
    "musician|artist|painter|poet|scientist|engineer|man|woman|person|boy|girl|coach|president|composer|"
    "philosopher|mathematician|physician|doctor|lawyer|architect|journalist|businessman|businesswoman|soldier|"
    "officer|director|teacher|professor|student|priest|chemist|physicist|historian|economist|dancer|pilot"
)
_DEMONYMS = "|".join(sorted(map(re.escape, DEMONYMS), key=len, reverse=True))
# "a Mexican footballer", "the Colombian cyclist", "X is Spanish." -- not "the Spanish government"
_DEMONYM = re.compile(
    rf"(?<!\w)({_DEMONYMS})(?:\s+(?:[a-z]+\s+){{0,2}}?(?:{_PERSON_NOUNS})s?\b)"
    rf"|(?:\b(?:is|was|are|were)\s+)({_DEMONYMS})(?=\s*(?:[.,;]|$))"
)


def demonym_countries(claim: str) -> list[str]:
    """Countries a claim states as a nationality: a demonym before a person noun ("a Mexican footballer",
    "a Colombian road cyclist") or as the predicate ("X was Spanish."); "the Spanish government" states none."""
    return list(dict.fromkeys(DEMONYMS[m.group(1) or m.group(2)] for m in _DEMONYM.finditer(claim)))


@dataclass
class ClaimCheck:
    claim: str
    entities: list[tuple[str, str]]
    supported: bool
    evidence: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    subject: str | None = None
    negated: bool = False
    contradicted: bool = False
    reason: str = ""  # why the claim is not checkable ("" when it is)

    @property
    def checkable(self) -> bool:
        """The KG says yes or no: the claim is supported or contradicted. A claim whose subject the KG lacks,
        that names no KG relation, or whose subject has no statement of the named relation of the kind the
        claim states (the KG lacks the fact) is not checkable, never unsupported (the open world)."""
        return self.supported or self.contradicted

    @property
    def verdict(self) -> str:
        """``supported``, ``contradicted`` or ``not_checkable``."""
        return "supported" if self.supported else "contradicted" if self.contradicted else "not_checkable"


PRONOUN_START = re.compile(r"^\s*(?:he|she|they|his|her|their|it|its)\b", re.IGNORECASE)
_YEAR_BOUND = re.compile(r"\b(before|after|until|since)\s+(?:[A-Za-z]+\s+){0,2}?(\d{3,4})\b", re.IGNORECASE)
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


class RelationMatcher:
    """The KG's properties by their labels, aliases and :data:`EXTRA_ALIASES` (one matcher for FActScore, KGR
    and KB-Binder's binding)."""

    def __init__(self, source):
        names = property_names(source)
        self.aliases = {pid: sorted(set(EXTRA_ALIASES.get(pid, [])) - set(n)) for pid, n in names.items()}
        self.names = {pid: n + self.aliases[pid] for pid, n in names.items()}
        self.labels = {pid: n for pid, n in names.items()}

    def relations(self, text: str) -> list[str]:
        """PIDs the text names: a label or alias it contains, or a label's head word (see names_relation)."""
        return sorted(
            pid
            for pid, labels in self.labels.items()
            if any(names_relation(text, n) for n in labels) or any(_contains(text, a) for a in self.aliases[pid])
        )

    def closest(self, phrase: str, cutoff: float = 0.5) -> str | None:
        """The PID whose label or alias is the phrase, else one the phrase names, else the closest label (difflib)."""
        import difflib

        phrase = phrase.lower().strip()
        exact = [pid for pid, names in self.names.items() if phrase in names]
        if exact:
            return exact[0]
        named = self.relations(phrase)
        if named:
            return named[0]
        by_name = {name: pid for pid, names in self.names.items() for name in names}
        match = difflib.get_close_matches(phrase, list(by_name), n=1, cutoff=cutoff)
        return by_name[match[0]] if match else None


class KGFactChecker:
    """Links claims to KG entities and relations and checks them against the subject's statements (cached)."""

    def __init__(self, source, entity_spans=candidate_spans):
        """``entity_spans``: claim -> the names to link (the rule's :func:`candidate_spans`, or an
        :class:`LLMEntityExtractor`)."""
        self.source, self.entity_spans = source, entity_spans
        self._search = lru_cache(maxsize=None)(source.search_label)
        self._facts = lru_cache(maxsize=None)(source.entity_facts)
        self.matcher = RelationMatcher(source)
        self.property_names = self.matcher.names

    def relations(self, claim: str) -> list[str]:
        """PIDs of the relations the claim names (label, alias or head word)."""
        return self.matcher.relations(claim)

    def facts(self, qid: str) -> list:
        """The statements of `qid` (cached)."""
        return self._facts(qid)

    def mentions(self, claim: str) -> list[tuple[str, str]]:
        """(qid, label) of KG entities mentioned in the claim; inner spans of a matched span dropped."""
        return sorted({(qid, span) for qid, span, _ in self._mentions(claim)})

    def _mentions(self, claim: str) -> list[tuple[str, str, int]]:
        """(qid, span, position of the span in the claim) of every linked mention."""
        found, covered = [], []
        for span in self.entity_spans(claim):
            if any(_contains(longer, span) for longer in covered):
                continue
            hits = self._search(span)
            if hits:
                covered.append(span)
                where = re.search(r"(?<!\w)" + re.escape(span.lower()) + r"(?!\w)", claim.lower())
                found.extend((qid, span, where.start() if where else len(claim)) for qid, _label in hits)
        return found

    def subject(self, claim: str) -> tuple[str, str] | None:
        """(qid, span) of the claim's first linked mention: what the claim is about. None when a name the KG
        does not know comes first ("Eduardo Salmerón Clemente was a citizen of Spain" is not about Spain): a run
        of capitalised words before that mention, unless it is a single sentence-initial word ("The ...")."""
        mentions = self._mentions(claim)
        if not mentions:
            return None
        qid, span, where = min(mentions, key=lambda m: (m[2], m[0]))
        if self.entity_spans is not candidate_spans:
            return None if self._unlinked_name_before(claim, where) else (qid, span)
        for run in re.finditer(r"(?:(?<!\w)[A-ZÀ-Þ][\w'’.\-]*\s*)+", claim[:where]):
            words = run.group(0).split()
            if len(words) > 1 or run.start() > 0:
                return None
        return qid, span

    def _unlinked_name_before(self, claim: str, where: int) -> bool:
        """True when a name the extractor gave, and the KG cannot link, starts before position ``where``."""
        for name in self.entity_spans(claim):
            found = re.search(r"(?<!\w)" + re.escape(name.lower()) + r"(?!\w)", claim.lower())
            if found and found.start() < where and not self._search(name):
                return True
        return False

    @staticmethod
    def _value_kind(fact) -> str:
        term = fact.value
        if term.kind == "iri":
            return "entity"
        return "year" if term.datatype and term.datatype.endswith("dateTime") else "literal"

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

    def about_subject(self, claim: str, about: Mapping[str, str | None]) -> tuple[str, str] | None:
        """(qid, name) of the answer's own entity (`about`: QID -> label, the question's anchors) when the claim
        is about it: it links or names the entity, or starts with a pronoun ("He was born in 1950")."""
        linked = {qid: span for qid, span, _ in self._mentions(claim)}
        for qid, label in about.items():
            if qid in linked:
                return qid, linked[qid]
            if label and _contains(claim, label):
                return qid, label
        if about and PRONOUN_START.match(claim):
            qid = next(iter(about))
            return qid, about[qid] or qid
        return None

    def check(self, claim: str, about: Mapping[str, str | None] | None = None) -> ClaimCheck:
        """The claim's verdict against the KG. `about`: the answer's entity (the question's anchors, QID ->
        label); a claim that names it or starts with a pronoun is about it, whatever other names come first
        ("Spain is a country for sport, Oscar Sevilla could not have voted" is about Oscar Sevilla)."""
        entities = self.mentions(claim)
        subject = self.about_subject(claim, about) if about else None
        subject = subject or self.subject(claim)
        nationality = demonym_countries(claim)
        relations = self.relations(claim) if subject else []
        if subject and nationality and "P27" in self.matcher.labels and "P27" not in relations:
            relations = sorted([*relations, "P27"])  # a demonym names country of citizenship
        negated = self._negated(claim, relations)

        def unchecked(reason: str) -> ClaimCheck:
            return ClaimCheck(
                claim, entities, False, [], relations, None if subject is None else subject[0], negated, False, reason
            )

        if subject is None:
            return unchecked("no subject the KG knows")
        if not relations:
            return unchecked("names no relation the KG has")
        qid, span = subject
        others = {q for q, _ in entities} - {qid}
        bound = _YEAR_BOUND.search(claim)
        stated = {
            "entity": bool(others) or bool(nationality),
            "year": re.search(r"(?<!\d)\d{3,4}(?!\d)", claim) is not None,
        }
        matched, unmatched_kinds = [], set()
        for fact in self._facts(qid):
            if fact.property not in relations:
                continue
            if bound and self._value_kind(fact) == "year":
                value = self._year_bound_holds(fact, bound)
                if value is None:
                    continue
                if value:
                    matched.append(f"{span} [{qid}] {fact.property_label or fact.property} {fact.value.value}")
                else:
                    unmatched_kinds.add(fact.property)
                continue
            value = self._value_in_claim(fact, claim, others)
            if value is None and fact.property == "P27" and fact.value_label in nationality:
                value = fact.value_label  # "a Colombian cyclist": Colombia, by its demonym
            if value is not None:
                matched.append(f"{span} [{qid}] {fact.property_label or fact.property} {value}")
            elif stated.get(self._value_kind(fact)):
                unmatched_kinds.add(fact.property)
        matched_props = {e.split("] ", 1)[1] for e in matched}
        denied = bool(unmatched_kinds) and not matched_props
        if not matched and not denied:
            # the open world: the KG lacks the fact, which makes the claim not checkable, never unsupported
            return unchecked(f"the KG has no statement of {span} [{qid}] for {', '.join(relations)} of the kind stated")
        if negated:  # a positive triple never supports a negated claim: it contradicts it
            supported, contradicted, evidence = denied, bool(matched), matched or sorted(unmatched_kinds)
        else:
            supported, contradicted, evidence = bool(matched), denied, matched or sorted(unmatched_kinds)
        return ClaimCheck(claim, entities, supported, evidence[:5], relations, qid, negated, contradicted)

    def _negated(self, claim: str, relations: list[str]) -> bool:
        """A negation in the part of the claim (between commas) that names the relation: in "Spain is a country for
        sport, X could not have voted" the "not" belongs to the voting, not to the country for sport."""
        parts = [p for p in re.split(r"\s*[,;]\s*", claim) if p]
        naming = [p for p in parts if set(self.relations(p)) & set(relations)] if len(parts) > 1 else []
        return any(NEGATION.search(p) for p in (naming or [claim]))

    @staticmethod
    def _year_bound_holds(fact, bound: re.Match) -> bool | None:
        """Whether a date statement lies on the claim's side of "before/after YEAR" (None: no year)."""
        year = fact.value.value.lstrip("+")[:4]
        if not year.isdigit():
            return None
        word, limit = bound.group(1).lower(), int(bound.group(2))
        return int(year) < limit if word in ("before", "until") else int(year) > limit

    def contradicted_claims(self, answer: str, subjects: set[str]) -> list[str]:
        """The rule-split claims of `answer` about one of `subjects` (QIDs) that the KG contradicts."""
        checks = [self.check(c) for c in split_claims_by_rule(answer)]
        return [c.claim for c in checks if c.contradicted and c.subject in subjects]
