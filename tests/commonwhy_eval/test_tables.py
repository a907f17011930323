"""Sampling, Table 2 aggregation, the criterion rows and the config section."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from benchval.commonwhy.eval import criterion, table2_results
from benchval.commonwhy.eval.questions import sample_questions
from benchval.commonwhy.eval.settings import all_systems, check_names, resolve


def _published(n_per_split=5):
    rows = []
    for split in ("head", "longtail"):
        for i in range(n_per_split):
            rows.append(
                {
                    "item_id": f"commonwhy-{split}-{i:05d}",
                    "split": split,
                    "question": f"Why {split} {i}?",
                    "answers": [f"Because {i}."],
                    "rule": f"r{i % 2}",
                    "reasoning_category": "Temporal",
                    "popularity": 10 + i,
                    "anchor_qids": ["Q1"],
                }
            )
    return pd.DataFrame(rows)


def _constructed():
    return pd.DataFrame(
        {
            "question_id": ["a", "b", "c"],
            "split": ["head", "middle", "longtail"],
            "question": ["Why a?", "Why b?", "Why c?"],
            "answers": [["Because a."], ["x"], []],
            "rule": ["r"] * 3,
            "reasoning_category": [None] * 3,
            "popularity": [3, 2, 1],
            "anchor_qids": [["Q1"], ["Q2"], ["Q3"]],
        }
    )


def test_sample_is_seeded_per_split_and_reports_filters():
    first, report = sample_questions(_published(), _constructed(), {"published": 2, "constructed": 5}, seed=7)
    again, _ = sample_questions(_published(), _constructed(), {"published": 2, "constructed": 5}, seed=7)
    pd.testing.assert_frame_equal(first, again)
    assert first.groupby(["source", "split"]).size().to_dict() == {
        ("constructed", "head"): 1,
        ("published", "head"): 2,
        ("published", "longtail"): 2,
    }
    usable = next(step for step in report if step["filter"] == "constructed: usable")
    assert (usable["before"], usable["after"]) == (3, 1)
    assert usable["removed"] == {"split not head/longtail (e.g. middle)": 1, "no reference answer": 1}
    assert first["id"].str.startswith(("pub-", "kg-")).all()
    other, _ = sample_questions(_published(20), None, {"published": 2}, seed=8)
    assert len(other) == 4


def _items():
    return pd.DataFrame(
        {
            "system": ["m"] * 4,
            "id": list("abcd"),
            "source": ["published"] * 4,
            "split": ["head", "head", "longtail", "longtail"],
            "bs_precision": [0.2, 0.4, 0.1, 0.3],
            "bs_recall": [0.5] * 4,
            "bs_f1": [0.3] * 4,
            "rougeL": [0.2, 0.4, 0.0, 0.2],
            "bleu": [10.0, 20.0, 0.0, 5.0],
            "meteor": [0.1, 0.3, 0.2, 0.2],
            "correct": [True, False, False, False],
            "factscore": [0.5, 1.0, np.nan, 0.0],
            "n_claims": [2, 1, 1, 1],
            "n_checkable": [2, 1, 0, 1],
        }
    )


def test_summarise_means_correctness_and_factscore_of_correct_answers():
    results = table2_results.summarise(_items()).set_index("split")
    assert results.loc["head", "rougeL"] == pytest.approx(0.3)
    assert results.loc["head", "bleu"] == pytest.approx(15.0)
    assert results.loc["head", "correctness_pct"] == pytest.approx(50.0)
    assert results.loc["head", "factscore_correct"] == pytest.approx(0.5)  # only the correct answer
    assert results.loc["head", "factscore_all"] == pytest.approx(0.75)
    assert math.isnan(results.loc["longtail", "factscore_correct"])  # nothing correct
    assert results.loc["longtail", "factscore_all"] == pytest.approx(0.0)


def test_table2_layout_and_figure(tmp_path):
    results = table2_results.summarise(_items())
    wide = table2_results.table2_layout(results, "published")
    assert list(wide.columns[:2]) == ["Long-Tail/BS-Prec", "Long-Tail/BS-Rec"]
    note = table2_results.bertscore_note("minilm", 6, False)
    assert "layer 6, not rescaled; not the paper's rescaled roberta-large" in note
    assert table2_results.table2_layout(results, "published", note).loc["m", "Notes"] == note
    assert wide.loc["m", "Head/Correctness (%)"] == 50.0
    assert len(wide.columns) == 19 and wide.loc["m", "Notes"] == ""
    assert wide.loc["m", "Long-Tail/FActScore coverage"] == 0.5
    table2_results.plot_results(results, tmp_path / "t.png", "test")
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_criterion_rows(tmp_path):
    results = table2_results.summarise(pd.concat([_items(), _items().assign(system="baseline-m")]))
    path = tmp_path / "results.csv"
    results.to_csv(path, index=False)
    rows = criterion.commonwhy_score_rows(path, {"m": {"family": "f", "size_b": 0.1}}, min_questions=1)
    assert set(rows["model"]) == {"m"}  # baselines are not models
    head = rows[rows["task"] == "commonwhy_head"].set_index("metric")["value"]
    assert head["judge_correct"] == pytest.approx(0.5)
    assert head["bleu"] == pytest.approx(0.15)
    assert head["factscore_all"] == pytest.approx(0.75)
    assert rows["value"].between(0, 1).all()
    assert list(rows.columns) == ["model", "family", "size_b", "task", "metric", "value", "n", "value_lo", "value_hi"]
    judged = rows[rows["metric"] == "judge_correct"].set_index("task")
    assert judged.loc["commonwhy_head", "n"] == 2  # 1 of 2 correct: Wilson 95% by hand
    z = 1.959963984540054
    centre, half = (0.5 + z**2 / 4) / (1 + z**2 / 2), z * np.sqrt(0.25 / 2 + z**2 / 16) / (1 + z**2 / 2)
    assert judged.loc["commonwhy_head", "value_lo"] == pytest.approx(centre - half)
    assert judged.loc["commonwhy_head", "value_hi"] == pytest.approx(centre + half)
    tasks = criterion.commonwhy_task_rows()
    assert tasks["role"].eq("downstream").all() and tasks["axes"].eq("event;social").all()


def test_settings_defaults_and_name_checks():
    settings = resolve({"models": ["a"], "baselines": {"backbone": "a"}, "judge": {"system": "a"}})
    assert settings["generation"]["max_new_tokens"] == 48
    assert settings["metrics"]["bertscore"]["model_type"] is None
    assert all_systems(settings) == ["a", "kbbinder-a", "kgr-a"]
    check_names(settings, {"a": {}})
    with pytest.raises(ValueError, match="commonwhy_eval.models"):
        check_names(resolve({"models": ["zz"]}), {"a": {}})
    with pytest.raises(ValueError, match="need a local model"):
        check_names(
            resolve(
                {
                    "endpoints": {"e": {"base_url": "http://x/v1", "model": "m"}},
                    "judge": {"system": "e"},
                    "baselines": {"backbone": None},
                }
            ),
            {},
        )
    with pytest.raises(ValueError, match="must also be listed"):
        check_names(
            resolve({"models": ["a"], "baselines": {"backbone": "b"}, "judge": {"system": "a"}}), {"a": {}, "b": {}}
        )
    with pytest.raises(ValueError, match="not sampled"):
        check_names(
            resolve(
                {
                    "models": ["a"],
                    "baselines": {"backbone": "a"},
                    "judge": {"system": "a"},
                    "sample": {"constructed": 0},
                }
            ),
            {"a": {}},
        )
    with pytest.raises(ValueError, match="commonwhy_eval.generation"):
        resolve({"generation": {"unknown_key": 1}})


def test_invalid_judge_marks_correctness_and_drops_its_criterion_rows(tmp_path):
    validity = {"valid": False, "reason": "judge m: balanced accuracy 0.55 (95% CI lower end 0.48) < bar 0.80"}
    results = table2_results.summarise(_items(), validity)
    assert results["correctness_pct"].isna().all() and results["factscore_correct"].isna().all()
    assert results["correctness_status"].str.startswith("invalid: judge m").all()
    assert results["factscore_all"].notna().any()  # measures without the judge stay
    wide = table2_results.table2_layout(results, "published")
    assert wide.loc["m", "Head/Correctness (%)"] == "invalid"
    assert "lower end 0.48" in wide.loc["m", "Notes"]
    path = tmp_path / "results.csv"
    results.to_csv(path, index=False)
    rows = criterion.commonwhy_score_rows(path, {"m": {"family": "f", "size_b": 0.1}}, min_questions=1)
    assert "judge_correct" not in set(rows["metric"]) and "rougeL" in set(rows["metric"])
    table2_results.plot_results(results, tmp_path / "t.png", "test")


def test_items_sharing_a_question_become_one_item_with_every_reference():
    published = _published(3)
    published.loc[1, ["question", "answers"]] = ["Why head 0?", ["Because another cause."]]
    published.loc[2, ["question", "answers"]] = ["Why head 0?", ["Because 0."]]  # same answer: kept once
    sample, report = sample_questions(published, None, {"published": None}, seed=1)
    head0 = sample[sample["question"] == "Why head 0?"]
    assert len(head0) == 1 and head0.iloc[0]["id"] == "pub-commonwhy-head-00000"
    assert head0.iloc[0]["references"] == ["Because 0.", "Because another cause."]
    merged = next(step for step in report if step["filter"] == "published: items sharing a question merged")
    assert (merged["before"], merged["after"]) == (6, 4)
    assert merged["merged"] == {
        "pub-commonwhy-head-00001": "pub-commonwhy-head-00000",
        "pub-commonwhy-head-00002": "pub-commonwhy-head-00000",
    }


def test_first_n_per_split_as_the_authors_script():
    sample, report = sample_questions(_published(5), None, {"published": 2}, seed=1, method="first")
    assert sample["id"].tolist() == [
        "pub-commonwhy-head-00000",
        "pub-commonwhy-head-00001",
        "pub-commonwhy-longtail-00000",
        "pub-commonwhy-longtail-00001",
    ]
    assert any(step["filter"] == "published/head: first sample" for step in report)
    with pytest.raises(ValueError, match="sample.method"):
        sample_questions(_published(5), None, {"published": 2}, seed=1, method="last")


def test_factscore_below_the_coverage_bar_is_missing_with_the_reason():
    results = table2_results.summarise(_items(), min_coverage=0.6).set_index("split")
    assert results.loc["head", "factscore_all"] == pytest.approx(0.75)  # coverage 3/3
    assert math.isnan(results.loc["longtail", "factscore_all"])  # coverage 1/2 < 0.6: n/a, not 0
    assert results.loc["longtail", "factscore_coverage"] == pytest.approx(0.5)
    assert "coverage 0.50 < 0.60" in results.loc["longtail", "factscore_status"]
    wide = table2_results.table2_layout(results.reset_index(), "published")
    assert "FActScore longtail: n/a" in wide.loc["m", "Notes"]


def test_rescaled_bertscore_columns_sit_beside_the_raw_ones_when_computed():
    items = _items()
    items = items.assign(
        bs_precision_rescaled=items["bs_precision"] * 2 - 1, bs_recall_rescaled=0.1, bs_f1_rescaled=items["bs_f1"] - 0.5
    )
    results = table2_results.summarise(items).set_index("split")
    assert results.loc["head", "bs_f1_rescaled"] == pytest.approx(results.loc["head", "bs_f1"] - 0.5)
    wide = table2_results.table2_layout(results.reset_index(), "published")
    assert "Head/BS-F1 (rescaled)" in wide.columns and len(wide.columns) == 19 + 6
    assert (
        "Head/BS-F1 (rescaled)"
        not in table2_results.table2_layout(table2_results.summarise(_items()), "published").columns
    )
    note = table2_results.bertscore_note("minilm", 6, False, "mean P/R/F over 2000 random pairs of creak/train.json")
    assert "BS-* (rescaled): (x - b) / (1 - b) with a baseline b computed here" in note
    assert "2000 random pairs" in note and "still not the paper's roberta-large scale" in note


def test_bertscore_note_names_the_papers_setting_only_when_it_is_used():
    assert table2_results.bertscore_note("roberta-large", 17, True).endswith(
        "rescaled with bert-score's baseline: the paper's setting"
    )
    assert "not the paper's rescaled roberta-large" in table2_results.bertscore_note("roberta-large", 17, False)


def test_paper_commonwhy_config_resolves_with_the_papers_bertscore():
    import yaml

    from benchval.plumbing.folders import REPO_ROOT

    section = yaml.safe_load((REPO_ROOT / "config/paper_commonwhy.yaml").read_text())["commonwhy_eval"]
    bs = resolve(section)["metrics"]["bertscore"]
    assert (bs["model_type"], bs["num_layers"], bs["rescale_with_baseline"]) == ("roberta-large", 17, True)
    assert bs["baseline"]["corpus"] is None and bs["batch_size"] == 32  # defaults still filled


def test_each_measure_says_whether_it_entered_the_study_and_why_not(tmp_path):
    """Item 5 of issue 34: per CommonWhy measure, the task rows say whether it entered the study and why not
    (the judge's check figures; FActScore's coverage against its bar); the study page's note and the
    scoreboard carry it."""
    from benchval.evaluation.score_table import commonwhy_criterion_tables, commonwhy_scoreboard_rows

    validity = {"valid": False, "reason": "judge m: balanced accuracy 0.55 (95% CI lower end 0.48) < bar 0.80"}
    results = table2_results.summarise(_items(), validity, min_coverage=0.9)
    path = tmp_path / "results.csv"
    results.to_csv(path, index=False)
    models = {"m": {"family": "f", "size_b": 0.1}}
    tasks = criterion.commonwhy_task_rows(path, models, min_questions=1)
    head = tasks.set_index("task").loc["commonwhy_head"]
    assert head["judge_correct_status"].startswith("not in the study: m: invalid: judge m: balanced accuracy 0.55")
    assert head["factscore_all_status"].startswith("entered (1 of 1 models; n = 2 questions per model")
    longtail = tasks.set_index("task").loc["commonwhy_longtail"]
    assert "coverage 0.50 < 0.90" in longtail["factscore_all_status"]
    valid = table2_results.summarise(_items(), {"valid": True, "reason": ""})
    valid.to_csv(tmp_path / "valid.csv", index=False)
    ok = criterion.commonwhy_task_rows(tmp_path / "valid.csv", models, min_questions=1).set_index("task")
    assert ok.loc["commonwhy_head", "judge_correct_status"].startswith("entered (1 of 1 models; n = 2 questions")
    assert "widest 95% interval" in ok.loc["commonwhy_head", "judge_correct_status"]
    # into the study's task table (its `unavailable` is the study page's note) and the scoreboard
    rows_csv, tasks_csv = tmp_path / "rows.csv", tmp_path / "tasks.csv"
    criterion.commonwhy_score_rows(path, models, min_questions=1).to_csv(rows_csv, index=False)
    tasks.to_csv(tasks_csv, index=False)
    _, task_table = commonwhy_criterion_tables(
        pd.read_csv(rows_csv), pd.read_csv(tasks_csv, keep_default_na=False), ["m"]
    )
    notes = task_table.set_index("task")["unavailable"]
    assert "lower end 0.48" in notes["commonwhy_head"] and notes["commonwhy_head_factscore"] == ""
    assert "coverage 0.50" in notes["commonwhy_longtail_factscore"]
    board = commonwhy_scoreboard_rows(str(rows_csv), str(tasks_csv), models).set_index("task")
    assert board.loc["commonwhy_head", "value"] != board.loc["commonwhy_head", "value"]  # NaN: not entered
    assert "not in the study" in board.loc["commonwhy_head", "note"]


def _two_models(correct_m2: list[bool]) -> pd.DataFrame:
    return pd.concat([_items(), _items().assign(system="m2", correct=correct_m2)], ignore_index=True)


def test_a_criterion_enters_only_with_its_evidence(tmp_path):
    """Issue 45: an artifact judge gave judge_correct 0.0 to every model on 4 questions per split and the
    criterion said "entered (3 of 3 models)". A measure constant across models, or resting on fewer than
    min_questions questions, does not enter; one that differs and rests on enough questions does."""
    models = {"m": {"family": "f", "size_b": 0.1}, "m2": {"family": "g", "size_b": 0.2}}
    valid = {"valid": True, "reason": ""}
    constant = tmp_path / "constant.csv"
    table2_results.summarise(_two_models([False] * 4), valid).to_csv(constant, index=False)
    tasks = criterion.commonwhy_task_rows(constant, models, min_questions=1).set_index("task")
    # long-tail: 0 of 2 for both models; head: 1 of 2 and 0 of 2
    assert tasks.loc["commonwhy_longtail", "judge_correct_status"] == (
        "not in the study: constant across models (0 for all 2): it ranks nothing"
    )
    assert tasks.loc["commonwhy_head", "judge_correct_status"].startswith("entered (2 of 2 models")
    rows = criterion.commonwhy_score_rows(constant, models, min_questions=1).query("metric == 'judge_correct'")
    assert set(rows["task"]) == {"commonwhy_head"} and len(rows) == 2
    differing = tmp_path / "differing.csv"
    table2_results.summarise(_two_models([True, True, True, False]), valid).to_csv(differing, index=False)
    few = criterion.commonwhy_task_rows(differing, models, min_questions=3).set_index("task")
    assert few.loc["commonwhy_head", "judge_correct_status"] == (
        "not in the study: fewer than 3 questions (criterion.min_questions): m n=2, m2 n=2"
    )
    assert criterion.commonwhy_score_rows(differing, models, min_questions=3).query("metric == 'judge_correct'").empty
    enough = criterion.commonwhy_task_rows(differing, models, min_questions=2).set_index("task")
    status = enough.loc["commonwhy_head", "judge_correct_status"]
    assert status.startswith("entered (2 of 2 models; n = 2 questions per model; spread across models 0.500")
