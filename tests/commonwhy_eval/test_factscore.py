"""FActScore on a tiny graph whose supported claims are known."""

from __future__ import annotations

import json
import math

import pandas as pd
import pyoxigraph as ox
import pytest

from benchval.commonwhy.eval.factscore import factscore_answer, factscore_table
from benchval.commonwhy.eval.kg_claims import KGFactChecker, candidate_spans, names_relation, split_claims_by_rule

from kg_fixture import WD, tiny_source, tiny_store

SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
ALIASES = {"P569": "born", "P17": "took place in", "P585": "held in"}  # as Wikidata's aliases would give


def source_with_aliases():
    from benchval.commonwhy.kg.local import LocalSource

    store = tiny_store()
    for pid, alias in ALIASES.items():
        store.add(ox.Quad(ox.NamedNode(WD + pid), ox.NamedNode(SKOS_ALT), ox.Literal(alias, language="en")))
    return LocalSource(store, name="tiny+aliases")


@pytest.fixture(scope="module")
def checker():
    return KGFactChecker(source_with_aliases())


def test_rule_based_claim_split():
    answer = (
        "Because Anna Berg is a citizen of Germany, and Tour Alpha took place in France, "
        "and German citizens need no visa."
    )
    assert split_claims_by_rule(answer) == [
        "Anna Berg is a citizen of Germany",
        "Tour Alpha took place in France",
        "German citizens need no visa",
    ]
    assert split_claims_by_rule("Because X died before 2022, while Y occurred in 2022. So what.") == [
        "X died before 2022",
        "Y occurred in 2022",
        "So what",
    ]
    assert split_claims_by_rule("") == []


def test_candidate_spans():
    spans = candidate_spans("Anna Berg's team raced in Tour Alpha in 2022")
    assert "Anna Berg" in spans and "Tour Alpha" in spans and "2022" in spans
    assert "Berg's team" not in spans


def test_entity_linking(checker):
    assert checker.mentions("Anna Berg is a citizen of Germany") == [("Q1", "Anna Berg"), ("Q2", "Germany")]
    assert checker.mentions("german citizens need no visa") == []


@pytest.mark.parametrize(
    "claim, supported",
    [
        ("Anna Berg is a citizen of Germany", True),  # Q1 P27 Q2
        ("Anna Berg was born in 1980", True),  # Q1 P569 1980-05-01
        ("Anna Berg was born in 1975", False),  # wrong year
        ("Tour Alpha took place in France", True),  # Q3 P17 Q4
        ("Tour Alpha took place in Germany", False),  # no Q3-Q2 statement
        ("Tour Alpha was held in 2022", True),  # Q3 P585 2022
        ("The capital of Germany is Berlin", True),  # Q2 P36 Q5 (value linked by label)
        ("German citizens need no visa", False),  # no KG entity
        ("Anna Berg likes France", False),  # only France's self-statement mentions France
    ],
)
def test_claim_support(checker, claim, supported):
    assert checker.check(claim).supported is supported


def test_factscore_of_an_answer(checker):
    answer = (
        "Because Anna Berg is a citizen of Germany, and Tour Alpha took place in France, "
        "and German citizens need no visa."
    )
    result = factscore_answer(answer, checker)
    assert (result["n_claims"], result["n_checkable"], result["n_supported"], result["n_unlinked"]) == (3, 2, 2, 1)
    assert result["factscore"] == pytest.approx(1.0) and result["coverage"] == pytest.approx(2 / 3)
    assert math.isnan(factscore_answer("ok", checker)["factscore"])


def test_relation_must_match_the_statement():
    plain = KGFactChecker(tiny_source())  # labels only, no aliases (as LitWD1K)
    assert plain.relations("Anna Berg is a citizen of Germany") == ["P27"]  # head word citizen~citizenship
    assert plain.relations("The capital of Germany is Berlin") == ["P36"]  # the label itself
    born = plain.check("Anna Berg was born in 1980")  # the KG has no alias, EXTRA_ALIASES gives "born in"
    assert born.checkable and born.supported and "P569" in born.relations
    assert not plain.check("Anna Berg likes cheese").checkable  # names no relation
    assert names_relation("he took place in it", "took place in") and not names_relation("a cat", "capital")
    with_alias = KGFactChecker(source_with_aliases())
    assert with_alias.check("Anna Berg was born in 1980").supported
    # Anna Berg's citizenship is Germany; the KG has no birthplace for her: the claim is not checkable (the open
    # world), neither supported nor unsupported (before the fix: checkable and unsupported, i.e. false)
    unknown = with_alias.check("Anna Berg was born in Germany")
    assert not unknown.checkable and not unknown.supported and not unknown.contradicted
    assert unknown.verdict == "not_checkable" and "has no statement" in unknown.reason


def test_factscore_table_keeps_judge_verdicts(checker):
    answers = pd.DataFrame({"id": ["a", "b"], "answer": ["Anna Berg was born in 1980.", "Anna Berg was born in 1975."]})
    judged = pd.DataFrame({"id": ["a", "b"], "correct": [True, False]})
    table = factscore_table(answers, judged, checker)
    assert table["factscore"].tolist() == [1.0, 0.0]
    assert table["coverage"].tolist() == [1.0, 1.0]
    assert table["correct"].tolist() == [True, False]
    assert json.loads(table.loc[0, "claims"])[0]["entities"] == ["Q1"]


def test_llm_claim_splitter_reads_dash_lines_and_falls_back(checker):
    from benchval.commonwhy.eval.kg_claims import LLMClaimSplitter
    from benchval.generation.prompts import PromptTemplate
    from benchval.plumbing.folders import REPO_ROOT

    class Lines:
        name = "lines"

        def __init__(self, text):
            self.text, self.first_line = text, None

        def generate(self, prompts, max_new_tokens, first_line=True):
            self.first_line = first_line
            return [self.text]

    template = PromptTemplate.from_file(REPO_ROOT / "config/prompts/commonwhy_claims.txt", required={"answer"})
    model = Lines("- Anna Berg is a citizen of Germany.\n- Tour Alpha took place in France.\nextra")
    splitter = LLMClaimSplitter(model, template)
    assert splitter("whatever") == ["Anna Berg is a citizen of Germany.", "Tour Alpha took place in France."]
    assert model.first_line is False  # the whole multi-line reply is needed
    assert LLMClaimSplitter(Lines("no dashes"), template)("Because A is B, and C is D.") == ["A is B", "C is D"]


def test_reference_factscore_pools_claims_per_source_and_split(checker):
    from benchval.commonwhy.eval.factscore import reference_factscore

    questions = pd.DataFrame(
        {
            "source": ["constructed", "constructed", "published"],
            "split": ["head", "head", "longtail"],
            # 2 + 2 claims (3 checkable, 2 supported) for constructed/head; 1 claim, nothing checkable, for published
            "references": [
                ["Because Anna Berg is a citizen of Germany, and German citizens need no visa."],
                ["Because Tour Alpha took place in France, and Tour Alpha took place in Germany."],
                ["Because people like to rest."],
            ],
        }
    )
    summary = reference_factscore(questions, checker).set_index(["source", "split"])
    head = summary.loc[("constructed", "head")]
    assert (head.n_references, head.n_claims, head.n_checkable, head.n_supported) == (2, 4, 3, 2)
    assert head.coverage == pytest.approx(3 / 4) and head.factscore == pytest.approx(2 / 3)
    published = summary.loc[("published", "longtail")]
    assert published.n_checkable == 0 and math.isnan(published.factscore)


@pytest.mark.parametrize(
    "claim, supported, contradicted",
    [
        ("Anna Berg was not a citizen of Germany", False, True),  # negated: the positive triple contradicts it
        ("Anna Berg wasn't a citizen of Germany", False, True),
        ("Anna Berg was never a citizen of Germany", False, True),
        ("Anna Berg was a citizen of France rather than Germany", False, True),  # contrastive
        ("Anna Berg was not a citizen of France", True, False),  # her citizenship statements lack France
        ("Anna Berg was a citizen of Germany", True, False),
        ("Anna Berg was a citizen of France", False, True),  # the KG says Germany
    ],
)
def test_negated_and_contrastive_claims_are_never_supported_by_a_positive_triple(
    checker, claim, supported, contradicted
):
    check = checker.check(claim)
    assert (check.supported, check.contradicted) == (supported, contradicted)
    assert check.negated is (claim not in {"Anna Berg was a citizen of Germany", "Anna Berg was a citizen of France"})


def test_support_comes_from_the_claims_subject_only(checker):
    # Q2 Germany -capital-> Berlin; a claim about Anna Berg naming "capital" and Berlin is not supported by it
    claim = checker.check("Anna Berg has the capital Berlin, like Germany")
    assert claim.subject == "Q1" and not claim.supported
    assert checker.check("Germany has the capital Berlin").supported  # the subject's own statement
    # France's self-statement (France -country-> France) supports nothing about Tour Alpha's or France's country
    assert checker.subject("Tour Alpha took place in France") == ("Q3", "Tour Alpha")
    assert not checker.check("France is the country of Tour Alpha").supported  # subject France: no such statement
    # a name the KG does not know comes first: the claim is not about Germany, so it is not checkable
    unknown = checker.check("Eduardo Salmerón Clemente was a citizen of Germany")
    assert unknown.subject is None and not unknown.checkable
    assert checker.subject("The capital of Germany is Berlin") == ("Q2", "Germany")  # a sentence-initial word


def test_relations_through_labels_and_aliases_of_the_kg_and_the_built_in_list():
    from benchval.commonwhy.eval.kg_claims import EXTRA_ALIASES, RelationMatcher

    matcher = RelationMatcher(tiny_source())  # labels only, as LitWD1K
    assert matcher.relations("Anna Berg was born in 1980") == ["P569"]  # built-in alias of date of birth
    assert matcher.relations("Anna Berg holds German nationality") == ["P27"]
    assert matcher.relations("Tour Alpha took place in France") == ["P17", "P585"]  # both named; the value decides
    assert matcher.closest("country of citizenship") == "P27" and matcher.closest("citizen of") == "P27"
    assert matcher.closest("zzzz") is None
    assert "P19" not in matcher.names  # aliases only for properties the KG declares
    assert "born in" in EXTRA_ALIASES["P19"]
    with_kg_alias = RelationMatcher(source_with_aliases())
    assert "born" in with_kg_alias.names["P569"]  # the KG's own skos:altLabel


def test_wrong_facts_about_a_subject_are_found_for_the_check_set(checker):
    answer = "Because Anna Berg was a citizen of France, and Tour Alpha took place in France."
    assert checker.contradicted_claims(answer, {"Q1"}) == ["Anna Berg was a citizen of France"]
    assert checker.contradicted_claims(answer, {"Q9"}) == []  # only claims about the given subjects
    assert checker.contradicted_claims("Because Anna Berg was born in 1980.", {"Q1"}) == []
    assert checker.contradicted_claims("Because Anna Berg was born in 1975.", {"Q1"}) == ["Anna Berg was born in 1975"]


class Reply:
    """A generator that gives one fixed reply (the LLM's)."""

    name = "reply"

    def __init__(self, text):
        self.text, self.prompts = text, []

    def generate(self, prompts, max_new_tokens, first_line=True):
        self.prompts.extend(prompts)
        return [self.text for _ in prompts]


def entity_template():
    from benchval.generation.prompts import PromptTemplate
    from benchval.plumbing.folders import REPO_ROOT

    return PromptTemplate.from_file(REPO_ROOT / "config/prompts/commonwhy_entities.txt", required={"claim"})


def source_with_a_lower_case_name():
    """The tiny graph plus Q6 "von Trapp family" -citizenship-> Germany: a name the capitalised-span rule
    cannot find (it starts with a lower-case word)."""
    from benchval.commonwhy.kg.local import LocalSource
    from kg_fixture import P, PS, RDFS_LABEL, WDT

    n, statement = ox.NamedNode, ox.NamedNode(WD + "statement/Q6-P27")
    store = tiny_store()
    store.add(ox.Quad(n(WD + "Q6"), n(RDFS_LABEL), ox.Literal("von Trapp family", language="en")))
    store.add(ox.Quad(n(WD + "Q6"), n(P + "P27"), statement))
    store.add(ox.Quad(statement, n(PS + "P27"), n(WD + "Q2")))
    store.add(ox.Quad(n(WD + "Q6"), n(WDT + "P27"), n(WD + "Q2")))
    return LocalSource(store, name="tiny+von Trapp")


def test_llm_entities_link_a_name_the_rule_misses_and_drop_names_the_claim_lacks():
    from benchval.commonwhy.eval.kg_claims import LLMEntityExtractor

    claim = "the von Trapp family were citizens of Germany"
    source = source_with_a_lower_case_name()
    by_rule = KGFactChecker(source)
    # by rule no span links the family ("Trapp" alone is not a label), and an unknown capitalised word precedes
    # Germany: no subject, not checkable
    assert by_rule.subject(claim) is None and not by_rule.check(claim).checkable
    llm = Reply("- von Trapp family\n- Germany\n- Austria\nthe end")
    extractor = LLMEntityExtractor(llm, entity_template())
    by_llm = KGFactChecker(source, extractor)
    check = by_llm.check(claim)
    assert check.subject == "Q6" and check.supported
    assert extractor(claim) == ["von Trapp family", "Germany"]  # Austria: not in the claim, dropped
    assert extractor.counts == {"claims": 1, "names_kept": 2, "names_not_in_claim": 1, "fell_back_to_rule": 0}
    assert len(llm.prompts) == 1  # one call per distinct claim
    assert "Statement: the von Trapp family were citizens of Germany" in llm.prompts[0][-1]["content"]


def test_llm_entities_an_unknown_first_name_leaves_no_subject_and_an_empty_reply_falls_back():
    from benchval.commonwhy.eval.kg_claims import LLMEntityExtractor

    unknown_first = KGFactChecker(
        source_with_aliases(), LLMEntityExtractor(Reply("- Eduardo Salmerón Clemente\n- Germany"), entity_template())
    )
    assert unknown_first.subject("Eduardo Salmerón Clemente was a citizen of Germany") is None
    fallback = LLMEntityExtractor(Reply("I cannot tell."), entity_template())
    assert fallback("Anna Berg is a citizen of Germany") == candidate_spans("Anna Berg is a citizen of Germany")
    assert fallback.counts["fell_back_to_rule"] == 1
    assert KGFactChecker(source_with_aliases(), fallback).check("Anna Berg is a citizen of Germany").supported


def test_claim_reading_builds_the_llm_only_when_asked(tmp_path):
    from benchval.commonwhy.eval.kg_claims import LLMClaimSplitter, LLMEntityExtractor, claim_reading
    from benchval.plumbing.folders import REPO_ROOT

    loaded = []

    def llm():
        loaded.append(True)
        return Reply("- x")

    prompts = {"prompt": REPO_ROOT / "config/prompts/commonwhy_claims.txt"}
    prompts["entity_prompt"] = REPO_ROOT / "config/prompts/commonwhy_entities.txt"
    assert claim_reading({"claims": "rule", "entities": "rule", **prompts}, llm) == (
        split_claims_by_rule,
        candidate_spans,
    )
    assert loaded == []
    splitter, spans = claim_reading({"claims": "rule", "entities": "llm", **prompts}, llm)
    assert splitter is split_claims_by_rule and isinstance(spans, LLMEntityExtractor) and loaded == [True]
    splitter, spans = claim_reading({"claims": "llm", "entities": "rule", **prompts}, llm)
    assert isinstance(splitter, LLMClaimSplitter) and spans is candidate_spans


def test_an_entity_prompt_without_the_claim_placeholder_is_rejected():
    from benchval.commonwhy.eval.kg_claims import LLMEntityExtractor
    from benchval.generation.prompts import PromptTemplate

    with pytest.raises(ValueError, match=r"entities\.txt: entity prompt lacks \$claim"):
        LLMEntityExtractor(Reply("- x"), PromptTemplate("List the entities of: $answer", source="entities.txt"))


def test_a_fact_the_kg_lacks_is_never_unsupported(checker):
    """Open world: only a claim the KG can say yes or no to counts; FActScore is supported / (supported +
    contradicted), and a claim about a relation the subject has no statement of lowers coverage only."""
    result = factscore_answer("Anna Berg was born in 1980, and Anna Berg was born in Berlin.", checker)
    verdicts = [c["verdict"] for c in result["claims"]]
    assert verdicts == ["supported", "not_checkable"]
    assert result["factscore"] == 1.0 and result["coverage"] == 0.5 and result["n_not_checkable"] == 1
    wrong = factscore_answer("Anna Berg was born in 1975.", checker)  # the KG says 1980: contradicted
    assert [c["verdict"] for c in wrong["claims"]] == ["contradicted"] and wrong["factscore"] == 0.0


def test_the_subject_is_the_entity_the_answer_is_about(checker):
    """The question's anchor is the subject when the claim names it, whatever comes first; a pronoun refers to it."""
    claim = "Germany is a country for sport, Anna Berg was born in 1980"
    assert checker.check(claim).subject == "Q2"  # without the answer's entity: the first linked mention
    about = {"Q1": "Anna Berg"}
    assert checker.check(claim, about).subject == "Q1" and checker.check(claim, about).supported
    assert checker.check("She was born in 1980", about).supported
    assert checker.check("She was born in 1980").subject is None


def test_a_year_bound_is_compared_with_the_date(checker):
    assert checker.check("Anna Berg was born before 1990").supported
    assert checker.check("Anna Berg was born after 1990").contradicted
    assert checker.check("Anna Berg was born after 1970").supported


def test_factscore_summary_counts_the_three_verdicts_per_system(checker):
    from benchval.commonwhy.eval.factscore import factscore_summary

    answers = pd.DataFrame({"id": ["a", "b"], "answer": ["Anna Berg was born in 1980.", "Anna Berg was born in 1975."]})
    judged = pd.DataFrame({"id": ["a", "b"], "correct": [True, False]})
    table = factscore_table(answers, judged, checker)
    row = factscore_summary({"m": table}).iloc[0]
    assert (row.n_claims, row.n_supported, row.n_contradicted, row.n_not_checkable) == (2, 1, 1, 0)
    assert row.coverage == 1.0 and row.factscore_pooled == 0.5


def test_a_nationality_adjective_states_citizenship_and_is_checked(checker):
    """Coverage on citizenship: "a German cyclist" states country of citizenship Germany (P27), checkable even
    when the country named is not in the KG ("Mexican": Mexico); "the German government" states none."""
    from benchval.commonwhy.eval.kg_claims import demonym_countries

    assert checker.check("Anna Berg is a German cyclist").supported
    mexican = checker.check("Anna Berg, a Mexican footballer, won the race")
    assert mexican.contradicted and mexican.relations == ["P27"]
    assert not checker.check("Anna Berg met the German government").checkable
    assert demonym_countries("the Spanish parliament voted") == [] and demonym_countries("X was Spanish.") == ["Spain"]


def test_a_negation_elsewhere_in_the_claim_does_not_negate_its_relation(checker):
    """KB-Binder's answer of issue 34: "Spain is a country for sport, X could not have voted ...": the "not" is
    the voting's; about the answer's entity, the claim is supported by its citizenship (here: P27 Germany)."""
    about = {"Q1": "Anna Berg"}
    claim = "Germany is the country of citizenship, Anna Berg could not have voted in France"
    check = checker.check(claim, about)
    assert check.subject == "Q1" and not check.negated and check.supported
    assert checker.check("Anna Berg was not a citizen of Germany", about).contradicted  # the negation's own part
