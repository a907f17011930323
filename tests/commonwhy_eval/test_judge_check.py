"""The judge's labelled check set (built from data + KG), its measures against sklearn, and validity."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pyoxigraph as ox
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, cohen_kappa_score

from benchval.commonwhy.eval.judge_check import (
    _fast_measures,
    build_check_set,
    judge_pairs,
    judge_validity,
    restate_question,
    score_check,
    second_template,
    kg_reworded,
    may_explain,
    reordered,
    restates,
    rule_grounded,
    shares_cause,
)
from benchval.commonwhy.kg.local import LocalSource

from kg_fixture import RDFS_LABEL, WD, WDT, tiny_store

SETTINGS = {
    "n_shared_anchor": 0,
    "n_other_rule": 1,
    "n_constructed": 5,
    "n_published": 5,
    "max_per_family": 5,
    "evasive_answers": ["", "I don't know."],
    "min_pairs": 10,
}
REF = "Because Anna Berg was a citizen of Germany, and Tour Alpha was in France."


def _kg():
    store = tiny_store()
    n = ox.NamedNode
    store.add(ox.Quad(n(WD + "Q6"), n(RDFS_LABEL), ox.Literal("Austria", language="en")))
    store.add(ox.Quad(n(WD + "Q5"), n(WDT + "P27"), n(WD + "Q6")))  # another country of citizenship
    store.add(ox.Quad(n(WD + "Q5"), n(WDT + "P27"), n(WD + "Q4")))  # France: in the reference, never swapped in
    return LocalSource(store, name="tiny")


def pub(item, question, answer, rule, qid, label, split="head"):
    return {
        "item_id": item,
        "split": split,
        "question": question,
        "answers": [answer],
        "answer": answer,
        "rule": rule,
        "rule_id": rule[:12],
        "reasoning_category": "TemporalReasoning",
        "popularity": 10,
        "anchor_qids": [qid],
        "anchor_labels": [label],
        "audit_reasons": [],
    }


TOUR = "If person A died before 2002, then A could not have attended Tour Alpha."


def _tables():
    published = pd.DataFrame(
        [
            pub(
                "h1",
                "Why couldn't Anna Berg attend Tour Alpha?",
                "Because Anna Berg died before 2002.",
                TOUR,
                "Q1",
                "Anna Berg",
            ),
            pub(
                "h2",
                "Why couldn't Carl Ode attend Tour Alpha?",
                "Because Carl Ode died before 2002.",
                TOUR,
                "Q9",
                "Carl Ode",
            ),
            pub(
                "h3",
                "Why is Anna Berg old?",
                "Because Anna Berg was born in 1900.",
                "If person A was born in 1900, then A is old.",
                "Q1",
                "Anna Berg",
            ),
            pub(
                "h4",
                "Why did Anna Berg die in Berlin?",
                "Because Anna Berg lived in Berlin.",
                "If person A lived in Berlin, then A died there.",
                "Q1",
                "Anna Berg",
            ),
            pub(
                "h5",
                "Why did Anna Berg die in Berlin?",
                "Because Anna Berg was born in Berlin.",
                "If person A was born in Berlin, then A died there.",
                "Q1",
                "Anna Berg",
            ),
            pub(
                "h6",
                "Why couldn't Anna Berg use a phone?",
                "Because Anna Berg died before 1900.",
                "If person A died before 1900, then A could not use a phone.",
                "Q1",
                "Anna Berg",
            ),
        ]
    )
    constructed = pd.DataFrame(
        [
            {
                "question_id": "cw1-Q1",
                "split": "head",
                "question": "Why couldn't Anna Berg have voted in France?",
                "answers": [REF],
                "rule": "If person A was a citizen of Germany, then he couldn't have voted in France.",
                "rule_id": "cw1",
                "reasoning_category": "Political",
                "popularity": 5,
                "anchor_qids": ["Q1"],
                "anchor_labels": ["Anna Berg"],
                "audit_reasons": [],
                "subgraph": [
                    {
                        "subject": "Q1",
                        "subject_label": "Anna Berg",
                        "property": "P27",
                        "property_label": "country of citizenship",
                        "value": "Q2",
                        "value_label": "Germany",
                    }
                ],
            }
        ]
    )
    return published, constructed


def _check(seed=1, **kwargs):
    published, constructed = _tables()
    return build_check_set(published, constructed, _kg(), SETTINGS, seed, **kwargs)


def test_check_set_kinds_wordings_and_labels_come_from_rules():
    check, report = _check()
    kinds = check.groupby("kind")["expected"].first().to_dict()
    assert kinds == {
        "reference": True,
        "reordered": True,
        "rule_grounded": True,
        "kg_reworded": True,
        "reworded_link": True,
        "valid_alternative_cause": True,
        "other_rule_same_entity": False,
        "wrong_fact": False,
        "broken_link": False,
        "restated_question": False,
        "evasive": False,
    }
    con = check[check["source"] == "constructed"].set_index("kind")["answer"]
    assert con["kg_reworded"] == "Germany is the country of citizenship of Anna Berg. Tour Alpha was in France."
    assert con["reordered"] == "Tour Alpha was in France, and Anna Berg was a citizen of Germany."
    assert con["rule_grounded"] == "Because Anna Berg was a citizen of Germany."
    assert con["wrong_fact"] == REF.replace("Germany", "Austria")  # another P27 value in the KG
    assert con["restated_question"] == "Because Anna Berg couldn't have voted in France."
    h1 = check[check["item"] == "h1"].set_index("kind")["answer"]
    assert h1["wrong_fact"] == "Because Carl Ode died before 2002."  # another anchor of the same rule
    # no positive but the reference is in the references' own words
    positives = check[check["expected"] & (check["kind"] != "reference")]
    assert not any(a in refs for a, refs in zip(positives["answer"], positives["references"]))
    multi = check[check["question"] == "Why did Anna Berg die in Berlin?"].iloc[0]
    assert len(multi["references"]) == 2  # both answers of the shared question are references
    assert report["n_pairs"] == len(check) and report["pairs_per_origin"] == {"rule": len(check)}
    pd.testing.assert_frame_equal(check, _check()[0])  # seeded


def test_rule_grounded_templates_are_taken_in_turn_and_rules_with_other_variables_skipped():
    from benchval.commonwhy.eval.judge_check import RULE_TEMPLATES

    texts = [rule_grounded("If person A died before 1970, then A could not X.", "Ann Lee", k) for k in range(3)]
    assert texts == [t.format(anchor="Ann Lee", cause="died before 1970") for t in RULE_TEMPLATES]
    assert rule_grounded("If A is in country C, then A is far.", "Ann Lee", 0) is None  # C not grounded
    assert rule_grounded("A rule that is no rule.", "Ann Lee", 0) is None
    assert reordered("Because X did a.") is None


def test_other_rule_answers_that_explain_the_question_are_valid_alternative_causes():
    check, report = _check()
    h1 = check[check["item"] == "h1"]
    other = h1.loc[h1["kind"] == "other_rule_same_entity", "answer"].tolist()
    alternative = h1.loc[h1["kind"] == "valid_alternative_cause"]
    assert "Because Anna Berg died before 1900." not in other  # died before 1900 explains missing a 2002 tour
    assert alternative["answer"].tolist() == ["Because Anna Berg died before 1900."]
    assert alternative["expected"].all() and "bound implies" in alternative["note"].iloc[0]
    died = "If person A died before {}, then A could not X."
    assert may_explain(died.format(1970), died.format(1996)) is True
    # issue 45 (p0078): a looser bound is compared with the event's date, and left out when the date is unknown
    assert may_explain(died.format(2022), died.format(1996)) is None
    assert may_explain(died.format(2022), died.format(1996), event=1999) is False
    assert may_explain(died.format(1971), died.format(1970), event=1985) is True
    born = "If person A was born after {}, then A could not X."
    assert may_explain(born.format(2001), born.format(1999)) is True
    assert may_explain(born.format(1990), born.format(1999), event=1999) is False
    assert may_explain("If A is a virus, then A is small.", "If A is a virus, then A cannot eat.")  # no bound
    assert not may_explain("If A is a virus, then A is small.", "If A is a cat, then A purrs.")
    assert shares_cause(
        "Because Anna Berg lived in Berlin for years.", ["Because Anna Berg lived in Berlin."], "Anna Berg"
    )


def test_family_cap_limits_questions_per_family():
    from benchval.commonwhy.eval.judge_check import question_family

    assert question_family("Why couldn't Anna Berg attend Tour Alpha?", ["Anna Berg"]) == "why couldn't x attend x"
    published, constructed = _tables()
    check, report = build_check_set(published, constructed, _kg(), {**SETTINGS, "max_per_family": 1}, 1)
    assert check.groupby("family")["item"].nunique().max() == 1
    assert report["drawn"]["published"]["skipped_by_family_cap"] == 1  # h1/h2 share a family


def test_model_answers_are_labelled_by_rules_over_the_kg_never_by_a_judge():
    from benchval.commonwhy.eval.kg_claims import KGFactChecker

    answers = {
        "m": pd.DataFrame(
            {
                "id": ["chk-cw1-Q1", "chk-h1", "chk-h3", "chk-h6"],
                "answer": [
                    "Because Anna Berg was a citizen of France.",  # the KG says Germany
                    "Anna Berg could not attend Tour Alpha.",  # restates the question
                    "Because she was tired.",  # no rule labels it
                    "Because Anna Berg couldn't use a phone.",  # the rule-made restatement itself
                ],
            }
        )
    }
    check, report = _check(model_answers=answers, checker=KGFactChecker(_kg()))
    model = check[check["origin"] == "model:m"].set_index("item")
    assert model.loc["cw1-Q1", "kind"] == "wrong_fact" and "citizen of France" in model.loc["cw1-Q1", "note"]
    assert model.loc["h1", "kind"] == "restated_question" and not model["expected"].any()
    assert "h3" not in model.index
    h6 = check[(check["item"] == "h6") & (check["kind"] == "restated_question")]
    assert h6["origin"].tolist() == ["model:m"]  # the duplicate is kept once, as the model's real answer
    assert {
        "item": "h3",
        "origin": "model:m",
        "answer": "Because she was tired.",
        "reason": "no rule labels it",
    } in report["left_out"]["examples"]
    assert restates("Because Anna Berg couldn't attend Tour Alpha.", "Why couldn't Anna Berg attend Tour Alpha?")
    assert not restates("Because Anna Berg died.", "Why couldn't Anna Berg attend Tour Alpha?")


# --- a larger synthetic data set: enough pairs per type for the gate to read -------------------------

FIRST = ["Ann", "Bob", "Cid", "Dora", "Eli", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max", "Ned"]
LAST = ["Ash", "Birch", "Cole", "Dale", "Eton", "Ford"]
RULES = [
    (
        "If person A died before 1900, then A could not have used a phone.",
        "Why couldn't {a} have used a phone?",
        "Because {a} died before 1900, while phones spread after 1900.",
    ),
    (
        "If person A was a citizen of Peru, then A could have voted in Lima.",
        "Why could {a} have voted in Lima?",
        "Because {a} was a citizen of Peru, and Lima is in Peru.",
    ),
    (
        "If person A has the occupation of sailor, then A knows knots.",
        "Why does {a} know knots?",
        "Because {a} has the occupation of sailor, and sailors tie knots.",
    ),
    (
        "If person A practices Islam, then A avoids pork.",
        "Why does {a} avoid pork?",
        "Because {a} practices Islam, whereas Islam forbids pork.",
    ),
    (
        "If person A speaks Welsh, then A can read Welsh signs.",
        "Why can {a} read Welsh signs?",
        "Because {a} speaks Welsh, and the signs are in Welsh.",
    ),
    (
        "If person A was born in Oslo, then A knows the fjords.",
        "Why does {a} know the fjords?",
        "Because {a} was born in Oslo, and Oslo lies on a fjord.",
    ),
]


def synthetic_published(n_people=42):
    rows = []
    names = [f"{f} {last}" for last in LAST for f in FIRST][:n_people]
    for i, name in enumerate(names):
        for k in (i % len(RULES), (i + 1) % len(RULES)):
            rule, question, answer = RULES[k]
            rows.append(pub(f"s{i}-{k}", question.format(a=name), answer.format(a=name), rule, f"Q{100 + i}", name))
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def big_check():
    settings = {**SETTINGS, "n_constructed": 0, "n_published": 42, "max_per_family": 7, "min_pairs": 100}
    check, report = build_check_set(synthetic_published(), None, _kg(), settings, 5)
    return check, report


def _gate(verdicts, seed=2):
    return score_check(verdicts, 400, 0.95, seed, floor=0.8, bar=0.8, min_pairs_per_type=30)


def test_every_canary_fails_the_gate_and_a_perfect_judge_passes(big_check):
    from benchval.commonwhy.eval.canaries import canary_judges

    check, report = big_check
    assert report["n_questions"] == 42 and report["drawn"]["largest_family"] <= 7
    perfect = check.assign(judged_yes=check["expected"])
    assert judge_validity(_gate(perfect), 0.8, "perfect")["valid"]
    for canary in canary_judges(0.5, seed=5):
        scores = _gate(canary.verdicts(check))
        validity = judge_validity(scores, 0.8, canary.name)
        assert not validity["valid"], (canary.name, validity["reason"])
    words = judge_validity(_gate(judge_pairs(canary_judges(0.5)[0], check)), 0.8, "words")
    assert {"positive", "reordered", "rule_grounded"} <= set(words["failing"])  # it only knows the references


def test_the_gate_reads_every_type_not_only_the_pooled_figure(big_check):
    check, _ = big_check
    # right on everything but the restated questions, which it accepts: pooled balanced accuracy stays high
    lenient = check.assign(judged_yes=check["expected"] | (check["kind"] == "restated_question"))
    scores = _gate(lenient).set_index("subset")
    assert scores.loc["all", "rate_lo"] >= 0.8 and scores.loc["all", "passes"]
    validity = judge_validity(scores.reset_index(), 0.8, "lenient")
    assert not validity["valid"] and validity["failing"] == ["restated_question"]
    assert "below the floor: restated_question 0.000" in validity["reason"]
    assert "kg_reworded" not in scores.index or not scores.loc["kg_reworded", "read"]


def test_a_type_with_too_few_pairs_is_not_read_and_reported():
    check, _ = _check()
    few = check[check["item"].isin(check["item"].unique()[:3])]  # three questions: no type has 30 pairs
    perfect = few.assign(judged_yes=few["expected"])
    scores = _gate(perfect)
    assert not scores["read"].any()
    validity = judge_validity(scores, 0.8, "perfect")
    assert not validity["valid"] and "not read (too few pairs)" in validity["reason"]


def test_question_bootstrap_resamples_questions_with_all_their_pairs():
    from benchval.commonwhy.eval.judge_check import question_weights

    rng = np.random.default_rng(0)
    weights = question_weights(5, 3, np.random.default_rng(7))
    picks = np.random.default_rng(7).integers(0, 5, size=(3, 5))
    for b in range(3):  # hand check: each weight is how often the question was picked in that draw
        assert weights[b].tolist() == np.bincount(picks[b], minlength=5).tolist()
    # one draw by hand: the pairs of the picked questions, concatenated
    verdicts = pd.DataFrame(
        {
            "item": np.repeat(["a", "b", "c", "d", "e"], 4),
            "kind": ["reference", "evasive"] * 10,
            "expected": [True, False] * 10,
            "judged_yes": rng.random(20) < 0.5,
        }
    )
    agree = (verdicts["judged_yes"] == verdicts["expected"]).to_numpy()
    items = verdicts["item"].to_numpy()
    naive = np.concatenate(
        [agree[(items == q) & verdicts["expected"].to_numpy()] for q in np.array(list("abcde"))[picks[0]]]
    )
    pos_k = np.bincount(np.searchsorted(list("abcde"), items[agree & verdicts["expected"].to_numpy()]), minlength=5)
    assert weights[0] @ pos_k / (weights[0] @ np.full(5, 2)) == pytest.approx(naive.mean())


def test_question_bootstrap_equals_scipy_when_each_question_has_one_pair():
    from scipy.stats import bootstrap

    rng = np.random.default_rng(3)
    agree = rng.random(60) < 0.85
    verdicts = pd.DataFrame(
        {"item": [f"q{i}" for i in range(60)], "kind": "evasive", "expected": False, "judged_yes": ~agree}
    )
    ours = score_check(verdicts, 20000, 0.95, 1).set_index("subset").loc["evasive"]
    ref = bootstrap((agree.astype(float),), np.mean, n_resamples=20000, method="percentile", random_state=1)
    assert ours["rate"] == pytest.approx(agree.mean())
    assert ours["rate_lo"] == pytest.approx(ref.confidence_interval.low, abs=0.02)
    assert ours["rate_hi"] == pytest.approx(ref.confidence_interval.high, abs=0.02)


def test_too_few_pairs_is_an_error_naming_the_setting():
    published, constructed = _tables()
    with pytest.raises(ValueError, match="min_pairs 500"):
        build_check_set(published, constructed, _kg(), {**SETTINGS, "min_pairs": 500}, 1)


def test_restate_and_second_template_helpers():
    assert restate_question("Why couldn't A B have voted?", "A B") == "Because A B couldn't have voted."
    assert restate_question("Why is it late?", None) == "Because is it late."
    assert second_template("Because X.", [], "A") is None
    assert kg_reworded("Because X.", [], "A", 0) is None


def test_fast_measures_equal_sklearn():
    rng = np.random.default_rng(0)
    for _ in range(50):
        expected = rng.random(40) < 0.4
        judged = rng.random(40) < rng.random()
        acc, bal, kappa = _fast_measures(expected, judged)
        assert acc == pytest.approx(accuracy_score(expected, judged))
        assert bal == pytest.approx(balanced_accuracy_score(expected, judged))
        assert kappa == pytest.approx(cohen_kappa_score(expected, judged))


def test_shared_questions_merge_within_a_split_only():
    from benchval.commonwhy.eval.questions import merge_shared_questions

    view = pd.DataFrame(
        {
            "id": ["p-1", "p-2", "p-3", "p-4"],
            "split": ["head", "head", "longtail", "head"],
            "question": ["Why A?", "Why A?", "Why A?", "Why B?"],
            "references": [["Because x."], ["Because y.", "Because x."], ["Because z."], ["Because w."]],
        }
    )
    report = []
    kept = merge_shared_questions(view, "published", report)
    assert list(kept["id"]) == ["p-1", "p-3", "p-4"]
    assert list(kept["references"]) == [["Because x.", "Because y."], ["Because z."], ["Because w."]]
    assert report[0]["merged"] == {"p-2": "p-1"} and (report[0]["before"], report[0]["after"]) == (4, 3)


def test_report_page_shows_every_measured_judge(tmp_path):
    import json

    from benchval.commonwhy.eval.steps.commonwhy_eval_judge_check_report import stage_judge_check_report

    def scores(judge, decision, ba):
        path = tmp_path / f"{judge}-{decision}.csv"
        pd.DataFrame(
            {
                "judge": [judge],
                "decision": [decision],
                "subset": ["all"],
                "balanced_accuracy": [ba],
                "balanced_accuracy_lo": [ba - 0.05],
                "balanced_accuracy_hi": [ba + 0.05],
            }
        ).to_csv(path, index=False)
        return str(path)

    validity = tmp_path / "v.json"
    validity.write_text(
        json.dumps({"judge": "a", "valid": False, "bar": 0.8, "reason": "judge a: balanced accuracy 0.545"})
    )
    stage_judge_check_report(
        [scores("a", "calibrated", 0.545)],
        [str(validity)],
        tmp_path / "t.csv",
        tmp_path / "t.html",
        measured=[scores("a", "logprob", 0.5), scores("b", "calibrated", 0.7)],
    )
    table = pd.read_csv(tmp_path / "t.csv")
    assert table["measured_by"].tolist() == ["this run"] + ["benchmarks/bench_commonwhy_judges.py"] * 2
    page = (tmp_path / "t.html").read_text()
    assert "INVALID (not used)" in page and "b calibrated 0.700 [0.650, 0.750]" in page
    assert "No judge at hand passes the bar 0.80" in page


def test_table2_reason_says_no_judge_at_hand_passes_with_the_figures(tmp_path):
    from benchval.commonwhy.eval.steps.commonwhy_eval_table2 import measured_judges_note

    path = tmp_path / "judges.csv"
    pd.DataFrame(
        {
            "judge": ["a", "a", "c"],
            "decision": ["calibrated", "logprob", None],
            "status": ["measured", "measured", "not prepared"],
            "valid": [False, False, None],
            "balanced_accuracy": [0.545, 0.5, None],
            "balanced_accuracy_lo": [0.484, 0.5, None],
            "balanced_accuracy_hi": [0.6, 0.5, None],
        }
    ).to_csv(path, index=False)
    note = measured_judges_note(path, 0.8)
    assert note == (
        "no judge at hand passes the bar 0.80 (benchmarks/bench_commonwhy_judges.py, balanced accuracy "
        "[95% CI]: a (calibrated) 0.545 [0.484, 0.600]; a (logprob) 0.500 [0.500, 0.500]; not measured: c)"
    )
    table = pd.read_csv(path)
    table.loc[1, ["valid", "balanced_accuracy_lo"]] = [True, 0.81]
    table.to_csv(path, index=False)
    assert measured_judges_note(path, 0.8).startswith("passing the bar 0.80: a (logprob) (")


def test_judge_benchmark_merges_config_files_and_keeps_earlier_judges(tmp_path):
    import importlib.util

    from benchval.plumbing.folders import REPO_ROOT

    spec = importlib.util.spec_from_file_location("bench", REPO_ROOT / "benchmarks/bench_commonwhy_judges.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    config = bench.read_configs(
        [str(REPO_ROOT / "config/config.yaml"), str(REPO_ROOT / "benchmarks/commonwhy_judges.yaml")]
    )
    assert {"smollm2-135m", "qwen2.5-coder-1.5b"} <= set(config["models"])
    assert config["models"]["qwen2.5-coder-1.5b"]["dtype"] == "bfloat16" and "commonwhy_eval" in config
    path = tmp_path / "judges.csv"
    pd.DataFrame({"judge": ["a", "b"], "decision": ["calibrated"] * 2, "balanced_accuracy": [0.5, 0.6]}).to_csv(path)
    merged = bench.merge_previous(
        pd.DataFrame({"judge": ["b"], "decision": ["calibrated"], "balanced_accuracy": [0.7]}), path
    )
    assert merged[["judge", "balanced_accuracy"]].values.tolist() == [["a", 0.5], ["b", 0.7]]


def test_answer_limit_bounds_the_questions_the_models_answer():
    from benchval.commonwhy.eval.judge_check import prepare_check

    published, constructed = _tables()
    every, _ = prepare_check(published, constructed, SETTINGS, 1)
    some, report = prepare_check(published, constructed, {**SETTINGS, "answer_limit": 2}, 1)
    assert len(some) == 2 and set(some["id"]) <= set(every["id"]) and every["id"].str.startswith("chk-").all()
    assert report["answered_by_models"] == {"drawn": len(every), "answered": 2, "reason": "answer_limit"}


def test_items_the_gold_audit_flagged_never_enter_the_check_set():
    published, constructed = _tables()
    published.loc[published["item_id"] == "h1", "audit_reasons"] = pd.Series([["constant: the query says 2010"]]).values
    check, report = build_check_set(published, constructed, _kg(), SETTINGS, 1)
    assert "h1" not in set(check["item"])
    # nor does its answer serve as another rule's negative
    assert "Because Anna Berg died before 2002." not in set(check["answer"])
    assert report["gold_audit_excluded"]["published"] == {"items": 1, "per_reason": {"constant": 1}}
    unflagged, _ = _check()
    assert "h1" in set(unflagged["item"])  # the control: without the flag it is drawn


# --- a judge that follows the labelling guidelines (docs/commonwhy-judge-guidelines.md), scripted ---------

TELEGRAM = (
    "If person A died before 1850, then A could not have sent a telegram.",
    "Why couldn't {a} have sent a telegram?",
    "Because {a} died before 1850, while telegrams spread after 1850.",
)
_REASON_PREFIX = re.compile(r"^\s*(?:because|the reason is that|it is due to the fact that)\s+", re.IGNORECASE)
_CLAUSE_SPLIT = re.compile(r",?\s+(?:and|while|whereas|but)\s+|,\s*which\s+", re.IGNORECASE)


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[\w']+", text.lower()))


class GuidelineJudge:
    """Yes when the answer gives, as its reason, a clause about the question's entity that is true (a fact of the
    world: the entity's gold causes) and explains the event (the question's own cause, or a "died before" bound at
    or below the question's). It reads the reason after "because" (so "X died ... because <event>" gives the event
    as its reason), and a negated reason ("it is not true that X died after N") asserts the opposite comparison
    ("X died before N"; a negation without one asserts nothing it can check). Its world knowledge is
    the table's facts; its reading is independent of the check set's labelling code."""

    name, decision = "guideline-judge", "rule"

    def __init__(self, published: pd.DataFrame):
        self.anchor = dict(zip(published["question"], published["anchor_labels"].str[0]))
        self.facts = {_norm(_CLAUSE_SPLIT.split(_REASON_PREFIX.sub("", a))[0]) for a in published["answer"]}
        self.cause = {
            q: _norm(_CLAUSE_SPLIT.split(_REASON_PREFIX.sub("", a))[0])
            for q, a in zip(published["question"], published["answer"])
        }

    def _explains(self, clause: str, question: str) -> bool:
        wanted = self.cause[question]
        if clause == wanted:
            return True
        bound, given = re.search(r"died before (\d+)$", wanted), re.search(r"died before (\d+)$", clause)
        return (
            bool(bound and given)
            and clause[: given.start()] == wanted[: bound.start()]
            and int(given.group(1)) <= int(bound.group(1))
        )

    def verdict(self, question: str, answer: str) -> bool:
        inner = re.search(r"\S\s+because\s+(.*)$", answer, re.IGNORECASE)
        reason = inner.group(1) if inner else _REASON_PREFIX.sub("", answer)
        negated = re.match(r"\s*it is not true that\s+(.*)$", reason, re.IGNORECASE)
        if negated:  # "it is not true that X died after N" asserts that X died before (or in) N
            opposite = {"before": "after", "after": "before"}
            flipped = re.sub(r"\b(before|after)\b", lambda m: opposite[m.group(1)], negated.group(1), count=1)
            if flipped == negated.group(1):
                return False
            reason = flipped
        anchor = _norm(self.anchor[question])
        for clause in map(_norm, _CLAUSE_SPLIT.split(reason)):
            if clause.startswith(anchor) and clause in self.facts and self._explains(clause, question):
                return True
        return False

    def decide(self, triples):
        return [{"yes": self.verdict(q, a), "parsed": True, "raw": ""} for q, _r, a in triples]


def test_a_judge_that_follows_the_guidelines_passes_and_accepts_a_valid_alternative_cause():
    from benchval.commonwhy.eval.canaries import canary_judges

    rules = RULES + [TELEGRAM]
    names = [f"{f} {last}" for last in LAST for f in FIRST][:42]
    rows = []
    for i, name in enumerate(names):
        for k in (i % len(rules), (i + 1) % len(rules)):
            rule, question, answer = rules[k]
            rows.append(pub(f"s{i}-{k}", question.format(a=name), answer.format(a=name), rule, f"Q{100 + i}", name))
    published = pd.DataFrame(rows)
    settings = {**SETTINGS, "n_constructed": 0, "n_published": 42, "max_per_family": 7, "min_pairs": 100}
    check, _ = build_check_set(published, None, _kg(), settings, 5)
    alternatives = check[check["kind"] == "valid_alternative_cause"]
    assert len(alternatives) and alternatives["answer"].str.contains("died before 1850").all()
    judge = GuidelineJudge(published)
    verdicts = judge_pairs(judge, check)
    validity = judge_validity(_gate(verdicts), 0.8, judge.name)
    assert validity["valid"], validity["reason"]
    assert verdicts.loc[verdicts["kind"] == "valid_alternative_cause", "judged_yes"].all()
    # the probe: "died before 1850" explains missing the phone (1900) though it is not the reference's cause
    question = "Why couldn't Gus Ash have used a phone?"  # Gus Ash (i = 6) has the telegram and phone rules
    probe = "Because Gus Ash died before 1850, while telegrams spread after 1850."
    reference = "Because Gus Ash died before 1900, while phones spread after 1900."
    assert judge.verdict(question, probe)
    assert not judge.verdict(question, "Because Gus Ash died before 1950.")  # not a fact of the world
    assert not judge.verdict(question, "Gus Ash died before 1900 because Gus Ash couldn't have used a phone.")
    matcher = {c.name: c for c in canary_judges(0.5)}["canary-string-matcher"]
    assert not matcher.decide([(question, reference, probe)])[0]["yes"]  # the matcher refuses the alternative ...
    reversed_link = "Gus Ash died before 1900 because Gus Ash couldn't have used a phone."
    assert matcher.decide([(question, reference, reversed_link)])[0]["yes"]  # ... and accepts the broken link
    # every canary is rejected on this set too
    for canary in canary_judges(0.5, seed=5):
        assert not judge_validity(_gate(canary.verdicts(check)), 0.8, canary.name)["valid"], canary.name


def test_one_cause_in_the_rules_other_wordings_is_the_same_cause():
    """Found by the targeted audit of other_rule_same_entity (benchmarks/results/commonwhy_label_agreement/
    resolution.md): "practices Islam" explains avoiding pork as "has the religion or worldview of Islam" does."""
    reference = ["Because M has the religion or worldview of Islam, which prohibits pork, and McRib contains pork."]
    assert shares_cause("Because M practices Islam, and observing Ramadan is common.", reference, "M")
    assert shares_cause("Because P is a bacterium, and x.", ["Because P is a bacteria, which cannot be printed."], "P")
    # the control: another occupation is another cause
    assert not shares_cause(
        "Because U has the occupation of mathematician.", ["Because U has the occupation of pilot."], "U"
    )
    islam = "If person A practices Islam, then A likely observes Ramadan."
    assert may_explain(islam, "If person A believed in Islam, then person A would likely avoid Vodka.")


# --- issue 45: a check set built against artifacts ------------------------------------------------------------


def _minimal_pairs(check: pd.DataFrame) -> pd.Series:
    """The pairs check_twins adds: reworded links, and the rule templates' wordings beyond rule_grounded."""
    templated = check["template"].str.startswith("rule_template") & (check["kind"] != "rule_grounded")
    return (check["kind"] == "reworded_link") | templated


def test_the_template_matcher_passes_a_set_without_minimal_pairs_and_fails_the_rebuilt_one(big_check):
    """Issue 45: a matcher that knows the templates passed the former check set (balanced accuracy 0.982; this
    matcher passes the default run's former set, 0.963). On the same questions without the minimal pairs it reads
    the wordings well; with them (every wording used for both labels) it fails the gate."""
    from benchval.commonwhy.eval.artifact_canaries import template_match
    from benchval.commonwhy.eval.canaries import CanaryJudge

    check, _ = big_check
    matcher = CanaryJudge("canary-template-matcher", template_match)
    former = judge_validity(_gate(matcher.verdicts(check[~_minimal_pairs(check)])), 0.8, matcher.name)
    rebuilt = judge_validity(_gate(matcher.verdicts(check)), 0.8, matcher.name)
    print("former:", former["reason"], "\nrebuilt:", rebuilt["reason"])
    assert former["balanced_accuracy_lo"] >= 0.9  # it reads the former wordings (on the default run's set: valid)
    assert not rebuilt["valid"] and "reworded_link" in rebuilt["failing"]
    assert rebuilt["balanced_accuracy"] < former["balanced_accuracy"] - 0.1


def test_the_twin_matcher_reads_the_minimal_pairs_and_is_still_rejected(big_check):
    """Issue 45: the matcher that also knows the twins' wordings reads them (the side of "because" that holds the
    reference's cause; "not true that" with the comparison inverted) and the gate still rejects it (here by the
    broken_link and wrong_fact rows; on the default run's rebuilt set by other_rule_same_entity,
    benchmarks/results/commonwhy_canaries/)."""
    from benchval.commonwhy.eval.artifact_canaries import twin_match
    from benchval.commonwhy.eval.canaries import CanaryJudge

    check, _ = big_check
    matcher = CanaryJudge("canary-twin-matcher", twin_match)
    verdicts = matcher.verdicts(check)
    twins = verdicts["template"].isin(["because_inside", "not_true_that"])
    print(verdicts.groupby("kind")["agrees"].agg(["mean", "size"]))
    assert verdicts.loc[twins, "agrees"].mean() >= 0.95
    assert not judge_validity(_gate(verdicts), 0.8, matcher.name)["valid"]


def test_every_wording_of_the_rebuilt_set_carries_both_labels(big_check):
    check, _ = big_check
    labels = check.groupby("template")["expected"].agg(set)
    print(labels)
    for template in ("because_inside", "not_true_that", "rule_template_0", "rule_template_1", "rule_template_2"):
        assert labels[template] == {True, False}, template


def test_the_surface_classifier_passes_a_set_whose_wording_gives_the_label_away(big_check):
    """The learned canary can pass: where a word gives the label away (across templates and families) it learns
    it out of fold; on the check set itself it is rejected."""
    from benchval.commonwhy.eval.artifact_canaries import SurfaceClassifier

    check, _ = big_check
    leaky = check.assign(answer=np.where(check["expected"], "Indeed, ", "Sadly, ") + check["answer"])
    for reads in ("answer", "pair"):
        canary = SurfaceClassifier(reads, seed=5)
        assert judge_validity(_gate(canary.verdicts(leaky)), 0.8, canary.name)["valid"], reads
        assert not judge_validity(_gate(canary.verdicts(check)), 0.8, canary.name)["valid"], reads


def test_the_surface_classifier_never_sees_the_family_or_template_it_judges(big_check, monkeypatch):
    from benchval.commonwhy.eval import artifact_canaries

    check, _ = big_check
    seen = []
    real = artifact_canaries.SurfaceClassifier._fit_predict

    def spy(texts, expected, train, test):
        seen.append((train.copy(), test.copy()))
        return real(texts, expected, train, test)

    monkeypatch.setattr(artifact_canaries.SurfaceClassifier, "_fit_predict", staticmethod(spy))
    artifact_canaries.SurfaceClassifier("answer", seed=5).verdicts(check)
    judged = np.zeros(len(check), dtype=int)
    for train, test in seen:
        judged += test
        assert not set(check["family"][train]) & set(check["family"][test])
        assert not set(check["template"][train]) & set(check["template"][test])
    assert (judged == 1).all()  # every pair judged once


def test_birth_place_rules_never_explain_a_death_place():
    """Issue 45 (p0286, p0287): cw158 "born in Concepción => died in the same entity" gave positives."""
    from benchval.commonwhy.rule_audit import premise_cannot_cause

    cw158 = (
        "If person A was born in Concepción, then he died in the same administrative territorial entity as the "
        "University of Concepción."
    )
    assert premise_cannot_cause(cw158) == "birth place -> death place"
    assert premise_cannot_cause("If person A died in Concepción, then he died in the same entity as X.") is None
    published, constructed = _tables()
    born = published.iloc[[0]].assign(
        item_id="b1",
        rule=cw158,
        question="Why did Anna Berg die in the same administrative territorial entity as the University of Concepción?",
        answers=[["Because Anna Berg was born in Concepción."]],
        answer="Because Anna Berg was born in Concepción.",
    )
    check, report = build_check_set(pd.concat([published, born]), constructed, _kg(), SETTINGS, 1)
    assert "b1" not in set(check["item"]) and "born in Concepción" not in " ".join(check["answer"])
    assert report["gold_audit_excluded"]["published"]["per_reason"]["premise_cannot_cause"] == 1


# --- issue 45 leftovers: causes the rules' queries never test; natural answers labelled blind -------------

PHYSICIANS = "SELECT ?item WHERE { ?item p:P27 ?s0. ?s0 ps:P27 wd:Q884. ?item p:P106 ?s1. ?s1 ps:P106 wd:Q39631. }"
ENROLLED = "If person A was enrolled at a university, then person A pursued higher education."
MASTERS = "If person A earned a master’s degree, then person A completed undergraduate education."
DOCTOR = "If person A has the occupation of medical doctor, then person A completed medical school."
DIED = "SELECT ?item WHERE { ?item wdt:P570 ?died. FILTER(?died < 2002) }"


def _degree_tables():
    published, constructed = _tables()
    degree = pd.DataFrame(
        [
            pub(
                "d1",
                "Why did Anna Berg pursue higher education?",
                "Because Anna Berg was enrolled at a university.",
                ENROLLED,
                "Q1",
                "Anna Berg",
            ),
            pub(
                "d2",
                "Why did Anna Berg complete undergraduate education?",
                "Because Anna Berg earned a master’s degree.",
                MASTERS,
                "Q1",
                "Anna Berg",
            ),
            pub(
                "d3",
                "Why did Anna Berg complete medical school?",
                "Because Anna Berg has the occupation of medical doctor.",
                DOCTOR,
                "Q1",
                "Anna Berg",
            ),
        ]
    )
    return pd.concat([published, degree], ignore_index=True), constructed


def test_a_cause_the_rules_query_never_tests_labels_no_pair(tmp_path):
    """Issue 45 (p0160, p0161): cw186 "earned a master's degree" and cw188 "enrolled at a university" are grounded
    by one query of physicians (P27, P106) that tests neither; the master's degree was a negative
    (other_rule_same_entity, No) for "why did X pursue higher education?", which it would explain were it true; so
    was cw183's "has the occupation of medical doctor" (its condition tested, its query shared with cw188's)."""
    from benchval.commonwhy.rule_audit import GroundingQueries, conditions_not_tested

    queries = tmp_path / "inference_rule_entities.json"
    rules = {ENROLLED: PHYSICIANS, MASTERS: PHYSICIANS, DOCTOR: PHYSICIANS, TOUR: DIED}
    queries.write_text(json.dumps({rule: {"sparql": sparql} for rule, sparql in rules.items()}))
    unfounded = conditions_not_tested(queries)
    assert set(unfounded) == {ENROLLED, MASTERS}  # DOCTOR's occupation is tested (P106); TOUR's is a bound
    assert "academic degree (P512)" in unfounded[MASTERS]
    grounding = GroundingQueries(queries)
    assert grounding.why_no_label(ENROLLED, DOCTOR).startswith("query_shared")
    assert grounding.why_no_label(ENROLLED, TOUR) is None and grounding.why_no_label(TOUR, DOCTOR) is None
    settings = {**SETTINGS, "n_published": 10, "n_other_rule": 10}
    old, _ = build_check_set(*_degree_tables(), _kg(), settings, 1)
    new, report = build_check_set(*_degree_tables(), _kg(), settings, 1, no_label=grounding.why_no_label)

    def negatives(check):
        d1 = check[(check["item"] == "d1") & (check["kind"] == "other_rule_same_entity")]
        return " ".join(d1["answer"])

    assert "master’s degree" in negatives(old) and "medical doctor" in negatives(old)  # the old wrong labels
    d1 = " ".join(new.loc[new["item"] == "d1", "answer"])
    assert "master’s degree" not in d1 and "medical doctor" not in d1
    assert "Anna Berg died before 1900" in negatives(new)  # a cause its query tests stays a negative
    left = {r["reason"].split(":")[0] for r in report["left_out"]["by_reason"] if r["origin"] == "rule"}
    assert "query_shared" in left and any("never tests its cause" in reason for reason in left)


def _labels(*rows):
    from benchval.commonwhy.eval.check_natural import answer_digest

    return pd.DataFrame(
        [
            {"question_id": q, "system": s, "answer_sha256": answer_digest(a), "label": label, "why": "blind"}
            for q, s, a, label in rows
        ]
    )


def test_natural_answers_labelled_blind_join_by_their_text_and_the_rest_is_reported():
    answers = {
        "m": pd.DataFrame(
            {
                "id": ["chk-cw1-Q1", "chk-h1", "chk-h3"],
                "answer": [
                    "Because Anna Berg was a citizen of Germany.",
                    "Anna Berg could not attend Tour Alpha.",  # a rule labels it too (restated_question)
                    "Because she was tired.",  # no rule labels it
                ],
            }
        )
    }
    labels = _labels(
        ("chk-cw1-Q1", "m", "Because Anna Berg was a citizen of Germany.", "yes"),
        ("chk-h1", "m", "Anna Berg could not attend Tour Alpha.", "no"),
        ("chk-h3", "m", "Because she was tired.", "not_checkable"),
        ("chk-h3", "m", "Because she was very tired.", "no"),  # this run's text differs
        ("chk-h1", "other", "Anna Berg could not attend Tour Alpha.", "no"),  # no such answerer
        ("kg-cw1-Q1", "m", "Because.", "no"),  # an evaluation answer
    )
    check, report = _check(model_answers=answers, natural_labels=labels)
    natural = check[check["kind"] == "natural_answer"].set_index("item")
    assert set(natural["origin"]) == {"blind_label"} and set(natural.index) == {"cw1-Q1", "h1"}
    assert natural.loc["cw1-Q1", "expected"] and not natural.loc["h1", "expected"]
    assert "model:m" not in set(check["origin"])  # the blind label wins over the rule's; h3 is not checkable
    got = report["natural_labels"]
    assert (got["labels"], got["matched"], got["used"], got["not_checkable"]) == (6, 3, {"yes": 1, "no": 1}, 1)
    assert sorted(got["unmatched"].values()) == [1, 1, 1] and any("other text" in r for r in got["unmatched"])
    assert any("evaluation question" in r for r in got["unmatched"])
    assert any(r["reason"].startswith("labelled blind: not checkable") for r in report["left_out"]["by_reason"])


def test_the_gate_scores_the_natural_answers_in_their_own_row():
    check, _ = _check()
    verdicts = check.assign(judged_yes=check["expected"])
    natural = pd.DataFrame(
        {"item": ["n1", "n1", "n2", "n3"], "kind": "natural_answer", "expected": [True, False, False, True]}
    )
    says_yes = pd.concat([verdicts, natural.assign(judged_yes=True)], ignore_index=True)
    table = score_check(says_yes, 200, 0.95, 1, min_pairs_per_type=2).set_index("subset")
    row = table.loc["natural_answer"]
    assert (row["n_pairs"], row["n_questions"], row["n_positive"], row["n_negative"]) == (4, 3, 2, 2)
    expected = natural["expected"].to_numpy()
    assert row["rate"] == pytest.approx(balanced_accuracy_score(expected, np.ones(4, dtype=bool))) == 0.5
    assert not row["passes"]  # a judge that says Yes to every natural answer is rejected there
    assert not judge_validity(table.reset_index(), 0.8, "says-yes")["valid"]
    right = pd.concat([verdicts, natural.assign(judged_yes=natural["expected"])], ignore_index=True)
    assert score_check(right, 200, 0.95, 1, min_pairs_per_type=2).set_index("subset").loc["natural_answer", "rate"] == 1


def test_natural_labels_file_is_checked_naming_the_line(tmp_path):
    from benchval.commonwhy.eval.check_natural import read_natural_labels

    path = tmp_path / "labels.csv"
    good = _labels(("chk-h1", "m", "x", "yes"), ("chk-h3", "m", "y", "no"))
    good.to_csv(path, index=False)
    assert len(read_natural_labels(path)) == 2
    good.assign(label=["yes", "maybe"]).to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"line 3: label 'maybe'"):
        read_natural_labels(path)
    pd.concat([good, good.iloc[[0]]]).to_csv(path, index=False)
    with pytest.raises(ValueError, match="line 4: a second label"):
        read_natural_labels(path)
    good.assign(answer_sha256="abc").to_csv(path, index=False)
    with pytest.raises(ValueError, match="line 2: answer_sha256"):
        read_natural_labels(path)
