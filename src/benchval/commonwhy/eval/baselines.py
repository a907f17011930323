"""Two KGQA baselines over the KG source, in smaller versions than the originals (documented in
docs/commonwhy-eval.md).

**KB-Binder-style** (Li et al., 2023): a few-shot prompt turns the question into a SPARQL draft in
which entities are ``ent:"label"`` and relations ``rel:"label"``; entities are bound by the KG's
exact-label search (falling back to the entities linked in the question), relations by the closest
property label (difflib); the bound query runs on the source, its rows become fact lines, and the
backbone writes the final answer from the question and those facts (``commonwhy_kbbinder_answer.txt``;
without that prompt, a template "Because <entity> has <relation> <values>."). As in the original,
several drafts are written per question and the answer set returned by most executed drafts wins
(majority vote; a tie goes to the earlier draft). The original varies its drafts by sampling and by
its exemplars; decoding here is greedy, so draft k sees the few-shot exemplars in the k-th order of
``itertools.permutations`` (draft 0: the prompt file's order). Reported per question: ``n_drafts``,
``n_parsed`` (a SELECT with ent:/rel: markers), ``n_bound``, ``n_with_facts``, ``votes`` (drafts behind
the chosen facts), and the chosen draft's ``draft``, ``parsed``, ``bound``, ``status``.

**KGR-style** (Guan et al., 2024): the draft is the backbone's own direct answer; it is split into
claims (rule-based splitter); per claim, its entities are linked and their statements retrieved
(:class:`~.kg_claims.KGFactChecker`), the claim is verified (subject, relation and object must match a
statement), and a claim the KG does not support but holds facts about is revised by the backbone
given those facts (``commonwhy_kgr_claim.txt``, statements of a relation the claim names first). The
final answer joins the claims, revised ones replaced; a draft without revised claims is kept as is.
One round (the original may iterate).
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import re
from collections import Counter
from collections.abc import Sequence

import pandas as pd
from tqdm import tqdm

from benchval.commonwhy.eval.kg_claims import KGFactChecker, RelationMatcher, candidate_spans, split_claims_by_rule
from benchval.commonwhy.namespaces import prefix_header
from benchval.generation.prompts import PromptTemplate, user

log = logging.getLogger(__name__)

_ENT = re.compile(r'ent:"([^"]+)"')
_REL = re.compile(r'rel:"([^"]+)"')
NO_ANSWER = "No answer was found in the knowledge graph."


def property_labels(source) -> dict[str, str]:
    """label -> PID of every property the source declares (``wikibase:claim``) with a label."""
    rows = source.query(
        prefix_header() + "SELECT ?p ?label WHERE { ?p wikibase:claim ?c ; rdfs:label ?label . "
        f'FILTER(LANG(?label) = "{source.language}") }}'
    )
    return {row["label"].value: row["p"].qid for row in rows if row["p"].qid}


def few_shot_messages(text: str, order: Sequence[int] | None = None) -> list[dict]:
    """A filled few-shot prompt as chat turns, so a chat model answers the last question, not the first.

    Blank-line separated blocks: the first is the instruction (system message); each example block
    "Question: …\nSPARQL: …" becomes a user turn and an assistant turn (in `order`, indices of the
    examples; default: as written); the last block (the asked question, its "SPARQL:" cue dropped) is
    the final user turn. A base model sees the same text back (blocks joined by blank lines) and
    continues after the final "Question:" block.
    """
    blocks = [block.strip() for block in text.strip().split("\n\n") if block.strip()]
    examples, asked = blocks[1:-1], blocks[-1:]
    messages = [{"role": "system", "content": blocks[0]}]
    for block in [examples[i] for i in (order if order is not None else range(len(examples)))] + asked:
        question, _, sparql = block.partition("\nSPARQL:")
        messages.append({"role": "user", "content": question.strip()})
        if sparql.strip():
            messages.append({"role": "assistant", "content": "SPARQL: " + sparql.strip()})
    return messages


def exemplar_orders(n_examples: int, n_drafts: int) -> list[tuple[int, ...]]:
    """The first `n_drafts` orders of the examples (itertools.permutations order; the first is as written)."""
    if n_drafts > math.factorial(n_examples):
        raise ValueError(
            f"commonwhy_eval.baselines.kbbinder_drafts: {n_drafts} drafts but the prompt's "
            f"{n_examples} examples have only {math.factorial(n_examples)} orders"
        )
    return list(itertools.islice(itertools.permutations(range(n_examples)), n_drafts))


def majority(results: Sequence[tuple[str, ...]]) -> tuple[int | None, int]:
    """(index of the first draft whose non-empty result most drafts returned, its votes); (None, 0) if none."""
    counts = Counter(r for r in results if r)
    if not counts:
        return None, 0
    best = max(counts.values())
    winner = next(i for i, r in enumerate(results) if r and counts[r] == best)
    return winner, best


def fact_line(fact) -> str:
    value = fact.value_label or fact.value.qid or fact.value.value
    return f"{fact.subject_label or fact.subject} | {fact.property_label or fact.property} | {value}"


class KBBinder:
    """Question -> SPARQL draft (few-shot) -> bound -> executed -> facts -> LLM answer from the facts."""

    def __init__(
        self,
        generator,
        template: PromptTemplate,
        source,
        max_new_tokens: int = 64,
        answer_template: PromptTemplate | None = None,
        n_drafts: int = 1,
    ):
        self.generator, self.template, self.source = generator, template, source
        self.answer_template = answer_template
        self.max_new_tokens = max_new_tokens
        self.n_drafts = n_drafts
        self.checker = KGFactChecker(source)
        self.relations = property_labels(source)
        self.property_label = {pid: label for label, pid in self.relations.items()}
        self.matcher: RelationMatcher = self.checker.matcher

    def draft(self, questions: Sequence[str]) -> list[list[str]]:
        """`n_drafts` drafts per question (first lines), each from another order of the examples."""
        filled = [self.template.fill(question=q) for q in questions]
        n_examples = len(few_shot_messages(filled[0])) // 2 - 1 if filled else 0
        orders = exemplar_orders(n_examples, self.n_drafts) if filled else []
        prompts = [few_shot_messages(text, order) for text in filled for order in orders]
        texts = [t.splitlines()[0] if t else "" for t in self.generator.generate(prompts, self.max_new_tokens)]
        return [texts[i : i + len(orders)] for i in range(0, len(texts), len(orders))] if orders else []

    @staticmethod
    def parses(draft: str) -> bool:
        """The draft has the shape asked for: a SELECT with at least one ent:"…" and one rel:"…"."""
        return "SELECT" in draft.upper() and bool(_ENT.search(draft)) and bool(_REL.search(draft))

    def bind(self, draft: str, question: str) -> tuple[str | None, dict]:
        """(SPARQL with wd:/wdt: ids, bindings), or (None, reason) when something cannot be bound."""
        entities, relations = _ENT.findall(draft), _REL.findall(draft)
        if not entities or not relations:
            return None, {"error": 'draft has no ent:"…" or rel:"…"'}
        bound = {"entities": {}, "relations": {}}
        linked = self.checker.mentions(question)
        for label in entities:
            hits = self.source.search_label(label) or linked
            if not hits:
                return None, {"error": f"entity {label!r} not in the KG", **bound}
            bound["entities"][label] = hits[0][0]
        for label in relations:
            match = self.relations.get(label) or self.matcher.closest(label)
            if match is None:
                return None, {"error": f"relation {label!r} matches no property label", **bound}
            bound["relations"][label] = match
        sparql = _ENT.sub(lambda m: f"wd:{bound['entities'][m.group(1)]}", draft)
        sparql = _REL.sub(lambda m: f"wdt:{bound['relations'][m.group(1)]}", sparql)
        sparql = sparql.strip()
        if not sparql.upper().startswith("SELECT"):
            sparql = sparql[sparql.upper().find("SELECT") :] if "SELECT" in sparql.upper() else sparql
        return prefix_header() + sparql, bound

    def bound_relation(self, bound: dict) -> str:
        """The KG label of the first bound property (not the draft's words for it)."""
        pid = next(iter(bound["relations"].values()))
        return self.property_label.get(pid, pid)

    def facts(self, bound: dict, rows: list[dict]) -> list[str]:
        """The retrieved values as fact lines "<entity> | <bound property's label> | <value>" (at most 5 rows)."""
        entity = next(iter(bound["entities"]))
        relation = self.bound_relation(bound)
        subject = self.source.label(bound["entities"][entity]) or entity
        values = []
        for row in rows[:5]:
            for term in row.values():
                values.append((self.source.label(term.qid) if term.qid else None) or term.value)
        return [f"{subject} | {relation} | {value}" for value in dict.fromkeys(values)]

    def verbalise(self, bound: dict, facts: list[str]) -> str:
        """The template answer (without an answer prompt): "Because <entity> has <property> <values>."."""
        if not facts:
            return NO_ANSWER
        entity, relation = next(iter(bound["entities"])), self.bound_relation(bound)
        return f"Because {entity} has {relation} {', '.join(f.split(' | ', 2)[2] for f in facts)}."

    def execute(self, draft: str, question: str) -> dict:
        """One draft parsed, bound and run: {draft, parsed, bound, status, facts (tuple), bindings}."""
        sparql, bound = self.bind(draft, question)
        status, facts = "no_binding", []
        if sparql is not None:
            try:
                facts = self.facts(bound, self.source.query(sparql))
                status = "answered" if facts else "empty_result"
            except Exception as error:  # noqa: BLE001 - any KG failure is this baseline's outcome
                status = f"query_error: {type(error).__name__}"
        return {
            "draft": draft,
            "parsed": self.parses(draft),
            "bound": sparql is not None,
            "status": status,
            "facts": tuple(facts),
            "bindings": bound,
        }

    def answer_from_facts(self, rows: list[dict]) -> None:
        """Rows that retrieved facts get the backbone's answer from them (in place), when an answer
        template is configured; the others keep their draft answer."""
        with_facts = [r for r in rows if r["facts"]]
        if self.answer_template is None or not with_facts:
            return
        prompts = [user(self.answer_template.fill(question=r["question"], facts=r["facts"])) for r in with_facts]
        for row, text in zip(with_facts, self.generator.generate(prompts, self.max_new_tokens)):
            row["answer"] = text.strip() or NO_ANSWER

    def answer(self, ids: Sequence[str], questions: Sequence[str]) -> pd.DataFrame:
        rows = []
        drafts = self.draft(questions)
        for item_id, question, own in tqdm(list(zip(ids, questions, drafts)), desc="kb-binder", mininterval=2):
            distinct = list(dict.fromkeys(" ".join(d.split()) for d in own))  # identical drafts vote once
            runs = [self.execute(d, question) for d in distinct]
            winner, votes = majority([r["facts"] for r in runs])
            chosen = runs[0 if winner is None else winner]
            rows.append(
                {
                    "id": item_id,
                    "question": question,
                    "answer": self.verbalise(chosen["bindings"], list(chosen["facts"])),
                    "draft": chosen["draft"],
                    "parsed": chosen["parsed"],
                    "bound": chosen["bound"],
                    "status": chosen["status"],
                    "facts": "\n".join(chosen["facts"]),
                    "bindings": str(chosen["bindings"]),
                    "n_drafts": len(own),
                    "n_distinct_drafts": len(runs),
                    "n_parsed": sum(r["parsed"] for r in runs),
                    "n_bound": sum(r["bound"] for r in runs),
                    "n_with_facts": sum(bool(r["facts"]) for r in runs),
                    "votes": votes,
                    "drafts": json.dumps(
                        [{k: r[k] for k in ("draft", "parsed", "bound", "status")} for r in runs], ensure_ascii=False
                    ),
                }
            )
        self.answer_from_facts(rows)
        table = pd.DataFrame(rows).drop(columns="question")
        log.info(
            "KB-Binder: %d questions, %d drafts (%d distinct), %d parse, %d bind, %d retrieve facts; %d questions "
            "answered from facts",
            len(table),
            int(table["n_drafts"].sum()),
            int(table["n_distinct_drafts"].sum()),
            int(table["n_parsed"].sum()),
            int(table["n_bound"].sum()),
            int(table["n_with_facts"].sum()),
            sum(bool(r["facts"]) for r in rows),
        )
        return table


def _claim_trace(check, n_facts: int) -> dict:
    """The trace of one claim of a draft: what the KG checker found, and (filled later) its revision."""
    return {
        "claim": check.claim,
        "entities": [q for q, _ in check.entities],
        "subject": check.subject,
        "relations": check.relations,
        "supported": check.supported,
        "n_facts": n_facts,
        "revised_to": None,
    }


class KGR:
    """Per claim: entities -> KG facts -> verification -> revision of an unsupported claim; the final answer
    joins the (revised) claims (Guan et al., 2024: extract, retrieve, verify, retrofit)."""

    def __init__(
        self,
        generator,
        template: PromptTemplate,
        source,
        max_new_tokens: int = 48,
        max_facts: int = 12,
        splitter=split_claims_by_rule,
        entity_spans=candidate_spans,
    ):
        self.generator, self.template, self.splitter = generator, template, splitter
        self.checker = KGFactChecker(source, entity_spans)
        self.max_new_tokens, self.max_facts = max_new_tokens, max_facts

    def facts_for(self, check) -> list[str]:
        """Statements of the claim's subject of a relation the claim names (the shared RelationMatcher; at most
        max_facts). A claim that names no relation the KG has gets none: nothing to revise it with."""
        if check.subject is None:
            return []
        facts = [f for f in self.checker.facts(check.subject) if f.property in check.relations]
        return list(dict.fromkeys(fact_line(f) for f in facts))[: self.max_facts]

    def answer(self, ids: Sequence[str], questions: Sequence[str], drafts: Sequence[str]) -> pd.DataFrame:
        records, prompts, asked = [], [], []  # asked: (record index, claim index)
        for i, (item_id, question, draft) in enumerate(zip(ids, questions, drafts)):
            checks = [self.checker.check(c) for c in self.splitter(draft)]
            trace = []
            for k, check in enumerate(checks):
                facts = self.facts_for(check)
                trace.append(_claim_trace(check, len(facts)))
                if facts and not check.supported:  # a claim the KG does not support and has facts about
                    prompts.append(
                        user(self.template.fill(question=question, claim=check.claim, facts="\n".join(facts)))
                    )
                    asked.append((i, k))
            records.append(
                {
                    "id": item_id,
                    "answer": draft,
                    "draft": draft,
                    "n_claims": len(checks),
                    "n_unsupported": sum(not c.supported for c in checks),
                    "n_facts": sum(t["n_facts"] for t in trace),
                    "n_revision_asked": 0,
                    "n_revised": 0,
                    "revision_asked": False,
                    "revised": False,
                    "trace": trace,
                }
            )
        revised = self.generator.generate(prompts, self.max_new_tokens) if prompts else []
        for (i, k), text in zip(asked, revised):
            record, claim = records[i], records[i]["trace"][k]
            record["n_revision_asked"] += 1
            record["revision_asked"] = True
            text = text.strip().rstrip(".")
            if text and text != claim["claim"]:
                claim["revised_to"] = text
                record["n_revised"] += 1
        for record in records:
            if record["n_revised"]:
                claims = [t["revised_to"] or t["claim"] for t in record["trace"]]
                record["answer"] = "Because " + ", and ".join(claims) + "."
                record["revised"] = True
            record["trace"] = json.dumps(record["trace"], ensure_ascii=False)
        log.info(
            "KGR: %d claims sent for revision in %d of %d drafts, %d claims revised",
            len(asked),
            sum(r["revision_asked"] for r in records),
            len(records),
            sum(r["n_revised"] for r in records),
        )
        return pd.DataFrame(records)


_SUB_LINE = re.compile(r"^\s*(Sub-question|SPARQL)\s*(\d+)\s*:\s*(.*)$", re.IGNORECASE)
_WD = re.compile(r"wd:\[([^\]]*)\]")
_WDT = re.compile(r"wdt:\[([^\]]*)\]")
NO_SUB_ANSWER = "No results found for this sub-question."


def authors_messages(text: str) -> list[dict]:
    """The authors'-shape prompt as chat turns: the first block is the system message, each example block's
    "Question:" line a user turn and its sub-question/SPARQL lines the assistant turn, the last block the question."""
    blocks = [block.strip() for block in text.strip().split("\n\n") if block.strip()]
    messages = [{"role": "system", "content": blocks[0]}]
    for block in blocks[1:]:
        question, _, rest = block.partition("\n")
        messages.append({"role": "user", "content": question.strip()})
        if rest.strip():
            messages.append({"role": "assistant", "content": rest.strip()})
    return messages


def sub_queries(text: str) -> dict[int, dict]:
    """Number -> {sub_question, query} from "Sub-question N: …" / "SPARQL N: …" lines (as the authors' script
    reads its model's reply)."""
    found: dict[int, dict] = {}
    for line in text.splitlines():
        match = _SUB_LINE.match(line)
        if match:
            kind = "sub_question" if match.group(1).lower().startswith("sub") else "query"
            found.setdefault(int(match.group(2)), {})[kind] = match.group(3).strip()
    return found


class KBBinderAuthors(KBBinder):
    """KB-Binder in the shape of the CommonWhy authors' ``baselines/KBBinder.py``: ONE call writes numbered
    sub-questions with a SPARQL query each (entities ``wd:[label]``, properties ``wdt:[label]``), every query is
    bound (entity: the KG's label search, else the question's linked entity; property: the shared
    RelationMatcher) and run, and the backbone answers from "Sub-question i: … Answer: [...]" lines. No vote."""

    def run_sub_query(self, query: str, question: str) -> tuple[list[str], str, dict]:
        """(answer labels, status, bindings) of one sub-query."""
        bound = {"entities": {}, "relations": {}}
        for label in _WD.findall(query):
            hits = self.source.search_label(label) or self.checker.mentions(question)
            if not hits:
                return [], "no_binding", {"error": f"entity {label!r} not in the KG", **bound}
            bound["entities"][label] = hits[0][0]
        for label in _WDT.findall(query):
            pid = self.relations.get(label) or self.matcher.closest(label)
            if pid is None:
                return [], "no_binding", {"error": f"property {label!r} matches no property", **bound}
            bound["relations"][label] = pid
        if not bound["entities"] or not bound["relations"]:
            return [], "no_binding", {"error": "query has no wd:[…] or wdt:[…]", **bound}
        sparql = _WD.sub(lambda m: f"wd:{bound['entities'][m.group(1)]}", query)
        sparql = _WDT.sub(lambda m: f"wdt:{bound['relations'][m.group(1)]}", sparql)
        try:
            rows = self.source.query(prefix_header() + sparql)
        except Exception as error:  # noqa: BLE001 - any KG failure is this baseline's outcome
            return [], f"query_error: {type(error).__name__}", bound
        values = [(self.source.label(t.qid) if t.qid else None) or t.value for row in rows[:5] for t in row.values()]
        values = list(dict.fromkeys(values))
        return values, "answered" if values else "empty_result", bound

    def answer(self, ids: Sequence[str], questions: Sequence[str]) -> pd.DataFrame:
        prompts = [authors_messages(self.template.fill(question=q)) for q in questions]
        outputs = self.generator.generate(prompts, self.max_new_tokens, first_line=False) if prompts else []
        rows = []
        for item_id, question, output in zip(ids, questions, outputs):
            subs = sub_queries(output)
            lines, runs = [], []
            for number, sub in sorted(subs.items()):
                answers, status, bound = (
                    self.run_sub_query(sub.get("query", ""), question) if "query" in sub else ([], "no_query", {})
                )
                runs.append({"number": number, **sub, "status": status, "answers": answers, "bindings": bound})
                shown = str(answers) if answers else NO_SUB_ANSWER
                lines.append(f"Sub-question {number}: {sub.get('sub_question', '')} Answer: {shown}")
            answered = [r for r in runs if r["answers"]]
            rows.append(
                {
                    "id": item_id,
                    "question": question,
                    "answer": NO_ANSWER,
                    "draft": output,
                    "parsed": any("query" in s for s in subs.values()),
                    "bound": any(r["status"] not in ("no_binding", "no_query") for r in runs),
                    "status": "answered" if answered else (runs[0]["status"] if runs else "no_sub_questions"),
                    "facts": "\n".join(lines) if answered else "",
                    "bindings": str([r["bindings"] for r in runs]),
                    "n_drafts": 1,
                    "n_distinct_drafts": 1,
                    "n_parsed": sum("query" in s for s in subs.values()),
                    "n_bound": sum(r["status"] not in ("no_binding", "no_query") for r in runs),
                    "n_with_facts": len(answered),
                    "votes": 0,
                    "drafts": json.dumps(runs, ensure_ascii=False, default=str),
                }
            )
        self.answer_from_facts(rows)
        table = pd.DataFrame(rows).drop(columns="question")
        log.info(
            "KB-Binder (authors' shape): %d questions, %d sub-queries, %d bound, %d with results",
            len(table),
            int(table["n_parsed"].sum()),
            int(table["n_bound"].sum()),
            int(table["n_with_facts"].sum()),
        )
        return table
