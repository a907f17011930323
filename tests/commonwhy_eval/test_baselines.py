"""The KB-Binder- and KGR-style baselines on the tiny graph with scripted backbones."""

from __future__ import annotations

import json

import pytest

from benchval.commonwhy.eval.baselines import KBBinder, KGR, NO_ANSWER, property_labels
from benchval.generation.prompts import PromptTemplate
from benchval.plumbing.folders import REPO_ROOT

from kg_fixture import tiny_source

PROMPTS = REPO_ROOT / "config/prompts"


class Scripted:
    name = "scripted"

    def __init__(self, replies):
        self.replies, self.prompts = list(replies), []

    def generate(self, prompts, max_new_tokens):
        self.prompts.extend(p[-1]["content"] for p in prompts)
        return [self.replies.pop(0) for _ in prompts]


@pytest.fixture(scope="module")
def source():
    return tiny_source()


def test_property_labels(source):
    labels = property_labels(source)
    assert labels["country of citizenship"] == "P27" and labels["date of birth"] == "P569"


def test_kbbinder_binds_executes_and_answers_from_the_facts(source):
    drafts = [
        'SELECT ?value WHERE { ent:"Anna Berg" rel:"citizenship" ?value . }\nQuestion: next',  # fuzzy relation
        'SELECT ?value WHERE { ent:"Nobody Known" rel:"country" ?value . }',  # entity falls back to the question
        "I do not know",
        'SELECT ?value WHERE { ent:"Anna Berg" rel:"zzzz qqqq" ?value . }',
    ]
    final = ["Because Anna Berg is German.", "Because Tour Alpha was in France."]
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder.txt", required={"question"})
    answer = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder_answer.txt", required={"question", "facts"})
    binder = KBBinder(Scripted(drafts + final), template, source, answer_template=answer)
    table = binder.answer(
        ["a", "b", "c", "d"],
        ["Why is Anna Berg German?", "Why did Tour Alpha happen?", "Why?", "Why is Anna Berg German?"],
    )
    assert table["answer"].tolist() == [*final, NO_ANSWER, NO_ANSWER]
    assert table["status"].tolist() == ["answered", "answered", "no_binding", "no_binding"]
    assert table["parsed"].tolist() == [True, True, False, True] and table["bound"].tolist() == [
        True,
        True,
        False,
        False,
    ]
    assert table.loc[0, "facts"] == "Anna Berg | country of citizenship | Germany"  # the bound property's label
    assert "zzzz" in table.loc[3, "bindings"]
    assert "Question: Why is Anna Berg German?" in binder.generator.prompts[0]
    assert "Facts:\nAnna Berg | country of citizenship | Germany" in binder.generator.prompts[4]  # the answer prompt
    # without an answer prompt: the template answer
    plain = KBBinder(Scripted(drafts[:1]), template, source).answer(["a"], ["Why is Anna Berg German?"])
    assert plain.loc[0, "answer"] == "Because Anna Berg has country of citizenship Germany."


def test_kgr_revises_the_unsupported_claim_only(source):
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kgr_claim.txt", required={"question", "claim", "facts"})
    backbone = Scripted(["Anna Berg is a citizen of Germany."])
    kgr = KGR(backbone, template, source)
    table = kgr.answer(
        ["a", "b", "c"],
        ["Why is Anna Berg German?", "Why is Anna Berg German?", "Why?"],
        [
            "Because Anna Berg is a citizen of Germany.",
            "Because Anna Berg is a citizen of France, and German citizens need no visa.",
            "Because it is so.",
        ],
    )
    assert table["revised"].tolist() == [False, True, False]
    assert table["n_revision_asked"].tolist() == [0, 1, 0]  # supported / no KG entity: nothing to revise
    assert table.loc[0, "answer"] == "Because Anna Berg is a citizen of Germany."
    # the wrong claim is replaced, the claim the KG cannot check is kept
    assert table.loc[1, "answer"] == "Because Anna Berg is a citizen of Germany, and German citizens need no visa."
    trace = json.loads(table.loc[1, "trace"])
    assert trace[0]["relations"] == ["P27"] and trace[0]["revised_to"] == "Anna Berg is a citizen of Germany"
    assert trace[1]["entities"] == [] and trace[1]["revised_to"] is None
    prompt = backbone.prompts[0]
    assert "Anna Berg | country of citizenship | Germany" in prompt
    assert "date of birth" not in prompt  # only statements of the relation the claim names
    assert "Claim: Anna Berg is a citizen of France" in prompt


def test_kbbinder_fact_lines_carry_the_bound_property_not_the_drafts_words(source):
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder.txt", required={"question"})
    draft = 'SELECT ?value WHERE { ent:"Anna Berg" rel:"nationality" ?value . }'  # an alias of P27
    table = KBBinder(Scripted([draft]), template, source).answer(["a"], ["Why is Anna Berg German?"])
    assert table.loc[0, "facts"] == "Anna Berg | country of citizenship | Germany"
    assert "nationality" not in table.loc[0, "answer"]


def test_kgr_offers_the_named_relations_statements_and_revises_a_wrong_date(source):
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kgr_claim.txt", required={"question", "claim", "facts"})
    backbone = Scripted(["Anna Berg was born in 1980."])
    table = KGR(backbone, template, source).answer(
        ["a", "b"],
        ["Why is Anna Berg old?", "Why is Anna Berg happy?"],
        ["Because Anna Berg was born in 1975.", "Because Anna Berg likes cheese."],
    )
    assert table["n_revised"].tolist() == [1, 0] and table["n_revision_asked"].tolist() == [1, 0]
    assert table.loc[0, "answer"] == "Because Anna Berg was born in 1980."
    assert "Anna Berg | date of birth | 1980-05-01T00:00:00Z" in backbone.prompts[0]
    assert json.loads(table.loc[1, "trace"])[0]["n_facts"] == 0  # names no relation: no statements offered


def test_few_shot_prompt_becomes_chat_turns():
    from benchval.commonwhy.eval.baselines import few_shot_messages

    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder.txt", required={"question"})
    messages = few_shot_messages(template.fill(question="Why is Anna Berg German?"))
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 3 + ["user"]
    assert messages[-1]["content"] == "Question: Why is Anna Berg German?"
    assert messages[2]["content"].startswith('SPARQL: SELECT ?value WHERE { ent:"Eduards')


def test_kbbinder_votes_over_several_drafts_each_with_another_exemplar_order(source):
    from benchval.commonwhy.eval.baselines import few_shot_messages

    anna = 'SELECT ?value WHERE { ent:"Anna Berg" rel:"country of citizenship" ?value . }'
    drafts = [
        "no query here",
        anna,
        anna,  # question a: 1 fails to parse, 2 agree
        'SELECT ?value WHERE { ent:"Anna Berg" rel:"date of birth" ?value . }',
        anna,  # question b: a tie
        'SELECT ?value WHERE { ent:"Anna Berg" rel:"zzzz qqqq" ?value . }',
    ]
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder.txt", required={"question"})
    backbone = Scripted(drafts)
    seen = []
    backbone.generate = lambda prompts, n: seen.extend(prompts) or [drafts.pop(0) for _ in prompts]
    table = KBBinder(backbone, template, source, n_drafts=3).answer(["a", "b"], ["Why is Anna Berg German?"] * 2)
    assert table["n_drafts"].tolist() == [3, 3]
    assert table["n_distinct_drafts"].tolist() == [2, 3]  # question a's two identical drafts vote once
    assert table["n_parsed"].tolist() == [1, 3] and table["n_bound"].tolist() == [1, 2]
    assert table["n_with_facts"].tolist() == [1, 2] and table["votes"].tolist() == [1, 1]
    assert table.loc[0, "facts"] == "Anna Berg | country of citizenship | Germany"
    assert table.loc[1, "facts"].startswith("Anna Berg | date of birth")  # tie: the earlier draft
    assert [d["status"] for d in json.loads(table.loc[1, "drafts"])] == ["answered", "answered", "no_binding"]
    assert [d["status"] for d in json.loads(table.loc[0, "drafts"])] == ["no_binding", "answered"]
    # the three drafts of a question see the examples in three different orders, the first as written
    orders = [tuple(m["content"] for m in p if m["role"] == "user") for p in seen[:3]]
    assert len(set(orders)) == 3 and seen[0] == few_shot_messages(template.fill(question="Why is Anna Berg German?"))
    assert all(p[-1]["content"] == "Question: Why is Anna Berg German?" for p in seen)


def test_kbbinder_refuses_more_drafts_than_exemplar_orders(source):
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder.txt", required={"question"})
    with pytest.raises(ValueError, match="kbbinder_drafts: 7 drafts but the prompt's 3 examples have only 6"):
        KBBinder(Scripted([]), template, source, n_drafts=7).answer(["a"], ["Why?"])


def test_majority_vote_ignores_empty_results():
    from benchval.commonwhy.eval.baselines import majority

    assert majority([(), ("x",), ("y",), ("y",)]) == (2, 2)
    assert majority([(), ()]) == (None, 0)


def test_kbbinder_in_the_shape_of_the_authors_script_runs_every_sub_query(source):
    from benchval.commonwhy.eval.baselines import KBBinderAuthors, authors_messages, sub_queries

    reply = (
        "Sub-question 1: Of which country is Anna Berg a citizen?\n"
        "SPARQL 1: SELECT ?answer WHERE { wd:[Anna Berg] wdt:[citizen of] ?answer . }\n"
        "Sub-question 2: Where did Tour Alpha take place?\n"
        "SPARQL 2: SELECT ?answer WHERE { wd:[Tour Alpha] wdt:[country] ?answer . }\n"
        "Sub-question 3: Who knows?\n"
        "SPARQL 3: SELECT ?answer WHERE { wd:[Nobody] wdt:[zzzz qqqq] ?answer . }"
    )
    assert (
        sorted(sub_queries(reply)) == [1, 2, 3]
        and sub_queries(reply)[2]["sub_question"] == "Where did Tour Alpha take place?"
    )

    class OneCall(Scripted):
        def generate(self, prompts, max_new_tokens, first_line=True):
            self.first_lines = getattr(self, "first_lines", []) + [first_line]
            return super().generate(prompts, max_new_tokens)

    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder_authors.txt", required={"question"})
    answer = PromptTemplate.from_file(PROMPTS / "commonwhy_kbbinder_answer.txt", required={"question", "facts"})
    backbone = OneCall([reply, "Because Anna Berg is German and Tour Alpha was in France."])
    messages = authors_messages(template.fill(question="Why couldn't Anna Berg vote?"))
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[2]["content"].startswith("Sub-question 1:") and "SPARQL 2:" in messages[2]["content"]
    table = KBBinderAuthors(backbone, template, source, answer_template=answer).answer(
        ["a"], ["Why couldn't Anna Berg vote?"]
    )
    row = table.iloc[0]
    assert (row["n_drafts"], row["n_parsed"], row["n_with_facts"]) == (1, 3, 2)
    assert row["facts"].splitlines() == [
        "Sub-question 1: Of which country is Anna Berg a citizen? Answer: ['Germany']",
        "Sub-question 2: Where did Tour Alpha take place? Answer: ['France']",
        "Sub-question 3: Who knows? Answer: No results found for this sub-question.",
    ]
    assert row["answer"] == "Because Anna Berg is German and Tour Alpha was in France."
    assert backbone.first_lines == [False, True]  # the whole multi-line reply is read, then a one-line answer


def test_kgr_takes_its_claims_from_the_configured_splitter(source):
    template = PromptTemplate.from_file(PROMPTS / "commonwhy_kgr_claim.txt", required={"question", "claim", "facts"})
    backbone = Scripted(["Anna Berg is a citizen of Germany."])
    llm_claims = lambda answer: ["Anna Berg is a citizen of France"]  # noqa: E731 - as an LLM splitter would
    table = KGR(backbone, template, source, splitter=llm_claims).answer(["a"], ["Why?"], ["Whatever it says."])
    assert table.loc[0, "n_revised"] == 1 and table.loc[0, "answer"] == "Because Anna Berg is a citizen of Germany."
