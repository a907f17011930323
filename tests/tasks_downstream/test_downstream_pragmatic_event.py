"""IMPPRES (Presupposition, Implicature), TimeDial and TRIP adapters."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchval.tasks.base import TaskDataError
from downstream_helpers import run_adapter, steps, write_jsonl

STATEMENTS = [" Given sentence 1, sentence 2 is true.", " Given sentence 1, sentence 2 is undetermined.",
              " Given sentence 1, sentence 2 is false."]


def test_presupposition_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "presupposition", mirror=mirror)
    by_step = steps(report)
    assert by_step["read"][0] == 17100
    assert by_step["controls"] == (17100, 13500, {"control_item": 3600})  # SOURCE.md: 400 per file
    assert by_step["unnatural"][2] == {"unnatural:didnt_used_to": 210, "unnatural:a_before_vowel": 60}
    assert by_step["near_duplicates"][:2] == (13230, len(items))
    assert 150 <= len(items) <= 300
    assert all(item.options == STATEMENTS for item in items)
    assert set(Counter(item.label for item in items)) == {0, 1, 2}


def test_presupposition_known_item_without_near_duplicate_filter(catalogue, mirror):
    items, _ = run_adapter(catalogue, "presupposition", mirror=mirror, near_duplicate_threshold=None)
    assert len(items) == 13230
    item = next(i for i in items if i.id == "imppres_presup-change_of_state-0-0e")
    assert item.context == "Sentence 1: The guest had found John.\nSentence 2: John used to be in an unknown location."
    assert item.label == 0 and item.source_row == 1  # entailment
    # "John didn't used to be ..." (pairID 1c) is the generator's ungrammatical negation
    assert "imppres_presup-change_of_state-0-1c" not in {i.id for i in items}


def test_implicature_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "implicature", mirror=mirror)
    by_step = steps(report)
    assert by_step["controls"] == (8400, 4200, {"control_item": 4200})
    assert by_step["unnatural"][2] == {"unnatural:misspelt_enormous": 228}
    assert 80 <= len(items) <= 160
    everything, _ = run_adapter(catalogue, "implicature", mirror=mirror, near_duplicate_threshold=None)
    item = next(i for i in everything if i.id == "imppres_impl-connectives-0001")
    assert item.context == ("Sentence 1: These computers or dresses would irritate Veronica.\n"
                            "Sentence 2: These computers and dresses wouldn't both irritate Veronica.")
    assert item.label == 0  # gold_label_prag entailment (gold_label_log is neutral)
    logical, _ = run_adapter(catalogue, "implicature", mirror=mirror, near_duplicate_threshold=None,
                             label_field="gold_label_log")
    assert next(i for i in logical if i.id == item.id).label == 1


def _nli(s1, s2, label="entailment", **extra):
    return {"sentence1": s1, "sentence2": s2, "gold_label": label, **extra}


def test_imppres_hand_made_filters(tmp_path, catalogue):
    path = write_jsonl(tmp_path / "p.jsonl", [
        _nli("Kim found Lee.", "Lee was lost.", UID="u", paradigmID=0, pairID="0e"),
        _nli("Kim found Lee.", "Lee was lost.", "neutral", UID="u", paradigmID=0, pairID="1n", control_item=True),
        _nli("Kim found Lee.", "Lee didn't used to be lost.", "contradiction", UID="u", paradigmID=0, pairID="2c"),
        _nli("Kim had found Lee.", "Lee was lost.", UID="u", paradigmID=1, pairID="0e"),  # near-duplicate of row 1
        _nli("Pat bakes bread daily.", "Bread exists.", UID="u", paradigmID=2, pairID="0e"),
    ])
    items, report = run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"], near_duplicate_threshold=0.6)
    by_step = steps(report)
    assert by_step["controls"] == (5, 4, {"control_item": 1})
    assert by_step["unnatural"] == (4, 3, {"unnatural:didnt_used_to": 1})
    assert by_step["near_duplicates"] == (3, 2, {"near_duplicate": 1})
    kept = {i.id for i in items}
    assert "imppres_presup-u-2-0e" in kept and len(kept & {"imppres_presup-u-0-0e", "imppres_presup-u-1-0e"}) == 1
    path = write_jsonl(tmp_path / "p.jsonl", [_nli("A.", "B.", "maybe", UID="u", paradigmID=0, pairID="0")])
    with pytest.raises(TaskDataError, match=r"p.jsonl, line 1: gold_label 'maybe' not in"):
        run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"])


def _dialog(i, turns, c1="ten minutes", c2="5 minutes", i1="two years", i2="a century"):
    return {"id": i, "conversation": turns, "correct1": c1, "correct2": c2, "incorrect1": i1,
            "incorrect1_rule": "Rule 1", "incorrect2": i2, "incorrect2_rule": "Rule 2"}


def test_timedial_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "timedial", mirror=mirror)
    by_step = steps(report)
    assert by_step["four_options"] == (1446, 1104, {"correct2_none": 342})  # SOURCE.md
    assert by_step["mask_sentence_final"][:2] == (1104, len(items))
    assert len(items) == 510
    item = next(i for i in items if i.id == "timedial-5")
    assert item.context == ("A: Hey, Ann. Wake up. It's time to get out of bed.\n"
                            "B: Oh, Dad. Do I have to get up right now?\n"
                            "A: Yes, or you'll be late.\n"
                            "B: Why didn't my alarm go off today?\n"
                            "A: It went off")
    assert item.options[item.label] == " 30 minutes ago"
    assert sorted(item.options) == sorted([" 30 minutes ago", " 14 hours ago", " two seconds ago"])
    assert len({i.label for i in items}) == 3  # seeded order: the correct span is not always first


def test_timedial_hand_made_rules(tmp_path, catalogue):
    path = tmp_path / "t.json"
    path.write_text(json.dumps([
        _dialog(1, ["A:How long ?", "B: It took <MASK> .", "A: Good ."]),                   # kept, cut after mask
        _dialog(2, ["A:How long ?", "B: It took <MASK> to cook ."]),                         # tail of 2 words
        _dialog(3, ["A:How long ?", "B: It took <MASK> ."], c2="none"),                      # 3 options only
        _dialog(4, ["A:How long ?", "B: It took <MASK> ."], i2="ten minutes"),               # duplicate option
        _dialog(5, ["A:How long ?", "B: It took a while ."]),                                # no mask
    ]), encoding="utf-8")
    items, report = run_adapter(catalogue, "timedial", raw={"test": path})
    assert [(i.id, i.context) for i in items] == [("timedial-1", "A: How long?\nB: It took")]
    assert items[0].options[items[0].label] == " ten minutes"
    by_step = steps(report)
    assert by_step["four_options"][2] == {"correct2_none": 1}
    assert by_step["unusable_rows"][2] == {"duplicate_options": 1, "mask_count": 1}
    assert by_step["mask_sentence_final"][2] == {"mask_not_sentence_final": 1}
    loose, _ = run_adapter(catalogue, "timedial", raw={"test": path}, max_words_after_mask=2)
    assert [i.id for i in loose] == ["timedial-1", "timedial-2"]
    assert loose[1].context == "A: How long?\nB: It took"
    path.write_text(json.dumps([{"id": 1, "conversation": ["A: <MASK>"]}]))
    with pytest.raises(TaskDataError, match=r"dialog 1: missing field\(s\)"):
        run_adapter(catalogue, "timedial", raw={"test": path})


def test_trip_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "trip", mirror=mirror)
    by_step = steps(report)
    assert by_step["read"][0] == 161
    assert by_step["unclear"] == (161, 161, {}) and by_step["unnatural"] == (161, 161, {})
    assert by_step["near_duplicates"][:2] == (161, len(items))
    # 110 distinct plausible stories in dev; a pair that shares one collapses with it
    assert 100 <= len(items) <= 115
    assert set(Counter(i.label for i in items)) == {0, 1}
    everything, _ = run_adapter(catalogue, "trip", mirror=mirror, near_duplicate_threshold=None)
    item = next(i for i in everything if i.id == "trip-dev_279")
    assert item.context == ("Story: John was getting the snacks ready for the party. John opened the cabinet, took out "
                            "a pan and put it on the counter. John opened the fridge and got out the pizza. John put "
                            "the pizza on the pan and put them into the oven.")
    assert item.options == [" John took a knife and cut the hot pizza in eight slices.",
                            " John called the pizza joint to deliver a pizza."]
    assert item.label == 0


def _story(sentences, plausible, conflicts=()):
    return {"sentences": sentences, "plausible": plausible, "confl_pairs": [list(c) for c in conflicts]}


def _pair(example_id, plausible, implausible, label=0, conflicts=((0, 1),)):
    stories = [_story(plausible, 1), _story(implausible, 0, conflicts)]
    ordered = stories if label == 0 else stories[::-1]
    return {"example_id": example_id, "stories": ordered, "pair_plausible_story": label}


def test_trip_hand_made_rules(tmp_path, catalogue):
    base = ["Ann ate the apple.", "Ann threw the core away.", "Ann washed her hands."]
    rows = [
        _pair("a", base, ["Ann ate the apple.", "Ann ate the apple again.", "Ann washed her hands."]),
        _pair("b", base, ["Ann ate the apple.", "Ann peeled the eaten apple.", "Ann washed her hands."], label=1),
        _pair("c", ["Bo lit the candle.", "Bo read a book."], ["Bo lit the candle.", "Bo blew out the sun."],
              conflicts=()),
        _pair("d", ["Cy made tea.", "Cy drank it."], ["Cy made tea.", "Cy drank nothing"]),
        _pair("e", ["Di ran.", "Di rested."], ["Di sat.", "Di slept."]),
    ]
    path = write_jsonl(tmp_path / "t.jsonl", rows)
    items, report = run_adapter(catalogue, "trip", raw={"t": path}, files=["t"])
    by_step = steps(report)
    assert by_step["unclear"] == (5, 3, {"no_conflict_annotation": 1, "not_one_sentence_apart": 1})
    assert by_step["unnatural"] == (3, 2, {"malformed_sentence": 1})
    assert by_step["near_duplicates"] == (2, 1, {"near_duplicate": 1})
    (item,) = items
    assert item.context == "Story: Ann ate the apple."
    assert item.options[item.label] == " Ann threw the core away. Ann washed her hands."
    rows[0]["pair_plausible_story"] = 1
    with pytest.raises(TaskDataError, match=r"t.jsonl, line 1: pair_plausible_story 1 disagrees"):
        run_adapter(catalogue, "trip", raw={"t": write_jsonl(path, rows)}, files=["t"])
