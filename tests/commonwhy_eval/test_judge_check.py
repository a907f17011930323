"""The judge's labelled check set (built from data + KG), its measures against sklearn, and validity."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyoxigraph as ox
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, cohen_kappa_score

from benchval.commonwhy.eval.judge import Judge
from benchval.commonwhy.eval.judge_check import (
    _fast_measures,
    build_check_set,
    judge_pairs,
    judge_validity,
    restate_question,
    score_check,
    second_template,
)
from benchval.commonwhy.kg.local import LocalSource

from kg_fixture import RDFS_LABEL, WD, WDT, tiny_store
from test_judge import PROMPT, ConstantModel, ExactMatchJudgeModel

SETTINGS = {
    "n_constructed": 5,
    "n_published": 5,
    "n_multi_answer": 5,
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


def _tables():
    def pub(item, question, answer, rule, qid, label):
        return {
            "item_id": item,
            "question": question,
            "answers": [answer],
            "answer": answer,
            "rule": rule,
            "rule_id": rule,
            "anchor_qids": [qid],
            "anchor_labels": [label],
        }

    published = pd.DataFrame(
        [
            pub(
                "h1",
                "Why couldn't Anna Berg attend Tour Alpha?",
                "Because Anna Berg died before 2002.",
                "r1",
                "Q1",
                "Anna Berg",
            ),
            pub(
                "h2",
                "Why couldn't Carl Ode attend Tour Alpha?",
                "Because Carl Ode died before 2002.",
                "r1",
                "Q9",
                "Carl Ode",
            ),
            pub("h3", "Why is Anna Berg old?", "Because Anna Berg was born in 1900.", "r2", "Q1", "Anna Berg"),
            pub(
                "h4", "Why did Anna Berg die in Berlin?", "Because Anna Berg lived in Berlin.", "r3", "Q1", "Anna Berg"
            ),
            pub(
                "h5",
                "Why did Anna Berg die in Berlin?",
                "Because Anna Berg was born in Berlin.",
                "r4",
                "Q1",
                "Anna Berg",
            ),
        ]
    )
    constructed = pd.DataFrame(
        [
            {
                "question_id": "cw1-Q1",
                "question": "Why couldn't Anna Berg have voted in France?",
                "answers": [REF],
                "rule": "rc",
                "rule_id": "cw1",
                "anchor_qids": ["Q1"],
                "anchor_labels": ["Anna Berg"],
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


def _check(seed=1):
    published, constructed = _tables()
    return build_check_set(published, constructed, _kg(), SETTINGS, seed)


def test_check_set_has_every_kind_labelled_from_the_data():
    check, report = _check()
    kinds = check.groupby("kind")["expected"].first().to_dict()
    assert kinds == {
        "reference": True,
        "second_template": True,
        "other_valid_cause": True,
        "other_rule_same_entity": False,
        "entity_swap": False,
        "question_restated": False,
        "evasive": False,
    }
    con = check[check["source"] == "constructed"].set_index("kind")["answer"]
    assert con["second_template"] == "Anna Berg's country of citizenship is Germany. Tour Alpha was in France."
    assert con["entity_swap"] == REF.replace("Germany", "Austria")  # another P27 value in the KG
    assert con["question_restated"] == "Because Anna Berg couldn't have voted in France."
    assert con["other_rule_same_entity"] in {
        "Because Anna Berg died before 2002.",
        "Because Anna Berg was born in 1900.",
        "Because Anna Berg lived in Berlin.",
        "Because Anna Berg was born in Berlin.",
    }
    h1 = check[check["item"] == "h1"].set_index("kind")["answer"]
    assert h1["entity_swap"] == "Because Carl Ode died before 2002."  # another anchor of the same rule
    multi = check[check["kind"] == "other_valid_cause"].iloc[0]
    assert len(multi["references"]) == 2 and multi["answer"] in multi["references"]
    assert report["n_pairs"] == len(check) and report["pairs_per_kind"]["reference"] == 5
    pd.testing.assert_frame_equal(check, _check()[0])  # seeded


def test_too_few_pairs_is_an_error_naming_the_setting():
    published, constructed = _tables()
    with pytest.raises(ValueError, match="min_pairs 500"):
        build_check_set(published, constructed, _kg(), {**SETTINGS, "min_pairs": 500}, 1)


def test_restate_and_second_template_helpers():
    assert restate_question("Why couldn't A B have voted?", "A B") == "Because A B couldn't have voted."
    assert restate_question("Why is it late?", None) == "Because is it late."
    assert second_template("Because X.", [], "A") is None


def test_fast_measures_equal_sklearn():
    rng = np.random.default_rng(0)
    for _ in range(50):
        expected = rng.random(40) < 0.4
        judged = rng.random(40) < rng.random()
        acc, bal, kappa = _fast_measures(expected, judged)
        assert acc == pytest.approx(accuracy_score(expected, judged))
        assert bal == pytest.approx(balanced_accuracy_score(expected, judged))
        assert kappa == pytest.approx(cohen_kappa_score(expected, judged))


def test_exact_match_judge_on_the_check_set():
    check, _ = _check()
    verdicts = judge_pairs(Judge(ExactMatchJudgeModel(), PROMPT, decision="generate"), check)
    by_kind = verdicts.groupby("kind")["judged_yes"].all()
    assert by_kind["reference"] and by_kind["other_valid_cause"]  # any reference counts
    assert not verdicts.loc[~verdicts["expected"], "judged_yes"].any()
    assert not verdicts.loc[verdicts["kind"] == "second_template", "judged_yes"].any()  # wording differs
    scores = score_check(verdicts, n_bootstrap=200, ci_level=0.95, seed=3).set_index("subset")
    expected, judged = verdicts["expected"].to_numpy(bool), verdicts["judged_yes"].to_numpy(bool)
    assert scores.loc["all", "balanced_accuracy"] == pytest.approx(balanced_accuracy_score(expected, judged))
    assert scores.loc["all", "kappa"] == pytest.approx(cohen_kappa_score(expected, judged))
    assert scores.loc["evasive", "n_negative"] == (verdicts["kind"] == "evasive").sum()
    assert scores.loc["evasive", "n_positive"] == verdicts["expected"].sum()
    assert np.isnan(scores.loc["reference", "balanced_accuracy"])  # one class: recall only
    row = scores.loc["all"]
    assert row["balanced_accuracy_lo"] <= row["balanced_accuracy"] <= row["balanced_accuracy_hi"]
    pd.testing.assert_frame_equal(scores, score_check(verdicts, 200, 0.95, seed=3).set_index("subset"))


def test_validity_bar_on_the_lower_end_of_the_interval():
    check, _ = _check()
    perfect = check.assign(judged_yes=check["expected"])
    valid = judge_validity(score_check(perfect, 200, 0.95, 1), 0.8, "perfect")
    assert valid["valid"] and valid["balanced_accuracy_lo"] == 1.0
    yes = judge_pairs(Judge(ConstantModel("Yes"), PROMPT, decision="generate"), check)
    invalid = judge_validity(score_check(yes, 200, 0.95, 1), 0.8, "yes-sayer")
    assert not invalid["valid"] and invalid["balanced_accuracy"] == 0.5
    assert "< bar 0.80" in invalid["reason"] and "yes-sayer" in invalid["reason"]


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

    from benchval.commonwhy.eval.run import stage_judge_check_report

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
    from benchval.commonwhy.eval.run import measured_judges_note

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

    from benchval.paths import REPO_ROOT

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
