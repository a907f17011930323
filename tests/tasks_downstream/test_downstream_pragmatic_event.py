"""IMPPRES (Presupposition, Implicature), TimeDial and TRIP adapters."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchval.tasks.base import TaskDataError
from downstream_helpers import item_by_id, run_adapter, steps, write_jsonl

STATEMENTS = [
    " Given sentence 1, sentence 2 is true.",
    " Given sentence 1, sentence 2 is undetermined.",
    " Given sentence 1, sentence 2 is false.",
]


def _step(report: dict, name: str) -> dict:
    return next(step for step in report["steps"] if step["filter"] == name)


def test_presupposition_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "presupposition", mirror=mirror)
    by_step = steps(report)
    assert by_step["read"][0] == 17100
    assert "controls" not in by_step  # IMPPRES's 3,600 control items are kept by default
    assert by_step["unnatural"] == (17100, 16830, {"unnatural:didnt_used_to": 210, "unnatural:a_before_vowel": 60})
    assert by_step["near_duplicates"] == (16830, 171, {"near_duplicate": 16659})
    # one item per template: a pairID's number is its place in the 19-row paradigm, so it fixes the
    # (trigger, presupposition) or control pairing; 9 files x 19 templates, each exactly once
    templates = [tuple(item.id.split("-")[i] for i in (1, 3)) for item in items]
    assert len(set(templates)) == len(templates) == 171 == 9 * 19
    assert all(item.options == STATEMENTS for item in items)
    assert Counter(item.label for item in items) == {0: 45, 1: 72, 2: 54}
    for name in ("unnatural", "near_duplicates"):
        assert _step(report, name)["label_shares"]["flagged"] is False
        assert _step(report, name)["label_shares"]["max_shift_points"] <= 5
    removed = _step(report, "near_duplicates")["removed_rows"]
    assert removed["count"] == 16659 and len(removed["first"]) == 50
    assert set(removed["first"][0]) == {"file", "line", "kept", "reason"}
    controls_dropped, report = run_adapter(catalogue, "presupposition", mirror=mirror, drop_controls=True)
    assert steps(report)["controls"] == (17100, 13500, {"control_item": 3600})  # SOURCE.md: 400 per file
    assert len(controls_dropped) == 135 == 9 * 15


def test_presupposition_seed_picks_the_group_member(catalogue, mirror):
    first, _ = run_adapter(catalogue, "presupposition", mirror=mirror, files=["presup_both"])
    again, _ = run_adapter(catalogue, "presupposition", mirror=mirror, files=["presup_both"])
    other, _ = run_adapter(catalogue, "presupposition", mirror=mirror, files=["presup_both"], seed=7)
    assert [i.id for i in first] == [i.id for i in again]
    assert len(other) == len(first) == 19 and {i.id for i in other} != {i.id for i in first}


def test_presupposition_known_item_without_near_duplicate_rule(catalogue, mirror):
    items, _ = run_adapter(catalogue, "presupposition", mirror=mirror, near_duplicate_fields=None)
    assert len(items) == 16830
    item = item_by_id(items, "imppres_presup-change_of_state-0-0e")
    assert item.context == "Sentence 1: The guest had found John.\nSentence 2: John used to be in an unknown location."
    assert item.label == 0 and item.source_row == 1  # entailment
    # "John didn't used to be ..." (pairID 1c) is the generator's ungrammatical negation
    assert "imppres_presup-change_of_state-0-1c" not in {i.id for i in items}


def test_implicature_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "implicature", mirror=mirror)
    by_step = steps(report)
    assert "controls" not in by_step
    assert by_step["unnatural"] == (8400, 8020, {"unnatural:misspelt_enormous": 380})
    assert by_step["near_duplicates"] == (8020, 85, {"near_duplicate": 7935})
    # the groups differ in size (e.g. 400 "negation" controls per file), so one per group moves the
    # shares: the step is flagged in the report, the n is kept
    shares = _step(report, "near_duplicates")["label_shares"]
    assert shares["flagged"] is True and shares["max_shift_points"] > 5
    assert any("near_duplicates" in note and "label share" in note for note in report["notes"])
    assert _step(report, "unnatural")["label_shares"]["flagged"] is False
    assert len(run_adapter(catalogue, "implicature", mirror=mirror, drop_controls=True)[0]) == 62
    everything, _ = run_adapter(catalogue, "implicature", mirror=mirror, near_duplicate_fields=None)
    item = item_by_id(everything, "imppres_impl-connectives-0001")
    assert item.context == (
        "Sentence 1: These computers or dresses would irritate Veronica.\n"
        "Sentence 2: These computers and dresses wouldn't both irritate Veronica."
    )
    assert item.label == 0  # gold_label_prag entailment (gold_label_log is neutral)
    logical, _ = run_adapter(
        catalogue, "implicature", mirror=mirror, near_duplicate_fields=None, label_field="gold_label_log"
    )
    assert item_by_id(logical, item.id).label == 1


def _nli(s1, s2, label="entailment", **extra):
    return {"sentence1": s1, "sentence2": s2, "gold_label": label, **extra}


def _presupposition(s1, s2, paradigm, pair, trigger, presupposition, label="entailment"):
    extra = dict(UID="u", paradigmID=paradigm, pairID=pair, trigger=trigger, presupposition=presupposition)
    return _nli(s1, s2, label, **extra)


def _control(s1, s2, paradigm):
    extra = dict(UID="u", paradigmID=paradigm, pairID="15c", trigger1="negated", trigger2="unembedded")
    return _nli(s1, s2, "contradiction", **extra, control_item=True)


def _presup_rows():
    return [
        _presupposition("Kim found Lee.", "Lee was lost.", 0, "0e", "unembedded", "positive"),  # line 1
        _presupposition("Pat found Sam.", "Sam was lost.", 1, "0e", "unembedded", "positive"),  # 2: same template
        _presupposition("Ann found Bo.", "Bo was lost.", 2, "0e", "unembedded", "positive"),  # 3: same template
        _presupposition("Kim didn't find Lee.", "Lee was lost.", 0, "3e", "negated", "positive"),  # 4: own template
        _control("Kim didn't find Lee.", "Kim found Lee.", 0),  # 5: control
        _control("Pat didn't find Sam.", "Pat found Sam.", 1),  # 6: same control
        _presupposition(
            "Kim found Lee.", "Lee didn't used to be lost.", 0, "1c", "unembedded", "negated", "contradiction"
        ),  # 7: unnatural
    ]


def test_imppres_near_duplicate_rule_on_a_fixture(tmp_path, catalogue):
    path = write_jsonl(tmp_path / "p.jsonl", _presup_rows())
    items, report = run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"])
    by_step = steps(report)
    assert "controls" not in by_step
    assert by_step["unnatural"] == (7, 6, {"unnatural:didnt_used_to": 1})
    assert by_step["near_duplicates"] == (6, 3, {"near_duplicate": 3})
    kept = [i.source_row for i in items]
    assert len(kept) == 3 and 4 in kept
    assert len(set(kept) & {1, 2, 3}) == 1 and len(set(kept) & {5, 6}) == 1
    # traceability: what each step removed, by file and line (and the row kept in its place)
    assert _step(report, "unnatural")["removed_rows"] == {
        "count": 1,
        "first": [{"file": "p.jsonl", "line": 7, "reason": "unnatural:didnt_used_to"}],
    }
    removed = _step(report, "near_duplicates")["removed_rows"]["first"]
    assert sorted(row["line"] for row in removed) == sorted({1, 2, 3, 5, 6} - set(kept))
    assert all(row["kept"] == f"p.jsonl:{next(k for k in kept if (k > 4) == (row['line'] > 4))}" for row in removed)
    # label shares: dropping the one unnatural contradiction moves the shares by 9.5 points (4/7 -> 4/6
    # entailment) and is flagged; keeping one per template leaves them as they were (2/3, 1/3)
    assert _step(report, "unnatural")["label_shares"]["flagged"] is True
    assert _step(report, "unnatural")["label_shares"]["max_shift_points"] == pytest.approx(9.52, abs=0.01)
    assert _step(report, "near_duplicates")["label_shares"]["flagged"] is False
    assert len(report["notes"]) == 1 and "'unnatural' moved a label share by 9.5 points" in report["notes"][0]
    # the same seed gives the same items; another seed may keep another member of a group
    again, _ = run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"])
    assert [i.id for i in again] == [i.id for i in items]
    survivors = {
        tuple(
            i.source_row for i in run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"], seed=seed)[0]
        )
        for seed in range(30)
    }
    assert len(survivors) > 1 and all(len(kept) == 3 and 4 in kept for kept in survivors)
    # the option drops the control items first
    without, report = run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"], drop_controls=True)
    assert steps(report)["controls"] == (7, 5, {"control_item": 2})
    assert len(without) == 2 and {i.source_row for i in without} - {1, 2, 3} == {4}
    path = write_jsonl(tmp_path / "p.jsonl", [_nli("A.", "B.", "maybe", UID="u", paradigmID=0, pairID="0")])
    with pytest.raises(TaskDataError, match=r"p.jsonl, line 1: gold_label 'maybe' not in"):
        run_adapter(catalogue, "presupposition", raw={"p": path}, files=["p"])


def test_imppres_rows_with_different_labels_are_not_near_duplicates(tmp_path, catalogue):
    rows = [
        _nli("Kim won.", "Kim played.", "entailment", trigger="x"),
        _nli("Lee won.", "Lee played.", "neutral", trigger="x"),
    ]  # same fields, another gold label
    path = write_jsonl(tmp_path / "i.jsonl", rows)
    items, report = run_adapter(
        catalogue, "presupposition", raw={"p": path}, files=["p"], near_duplicate_fields=["trigger"]
    )
    assert len(items) == 2 and steps(report)["near_duplicates"] == (2, 2, {})


def _dialog(i, turns, c1="ten minutes", c2="5 minutes", i1="two years", i2="a century"):
    return {
        "id": i,
        "conversation": turns,
        "correct1": c1,
        "correct2": c2,
        "incorrect1": i1,
        "incorrect1_rule": "Rule 1",
        "incorrect2": i2,
        "incorrect2_rule": "Rule 2",
    }


def test_timedial_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "timedial", mirror=mirror)
    by_step = steps(report)
    assert by_step["four_options"] == (1446, 1104, {"correct2_none": 342})  # SOURCE.md
    assert by_step["mask_sentence_final"] == (1104, 1104, {})
    assert len(items) == 1104
    assert {i.label for i in items} == {0}  # the correct option is always the first
    with_suffix = [i for i in items if i.target is not None]
    assert len(with_suffix) == 594 == _step(report, "mask_sentence_final")["changed_rows"]["count"]
    item = item_by_id(items, "timedial-5")
    assert item.context == (
        "A: Hey, Ann. Wake up. It's time to get out of bed.\n"
        "B: Oh, Dad. Do I have to get up right now?\n"
        "A: Yes, or you'll be late.\n"
        "B: Why didn't my alarm go off today?\n"
        "A: It went off"
    )
    assert item.options == [" 30 minutes ago", " 14 hours ago", " two seconds ago"] and item.target is None
    kept = item_by_id(items, "timedial-1")  # MASK mid-sentence: kept, rest of sentence as suffix
    assert kept.context.endswith("B: That's fine. We've allowed")
    assert kept.options[0] == " forty-eight hours" and kept.target == " to be on the safe side"
    dropped, report = run_adapter(catalogue, "timedial", mirror=mirror, mid_sentence_masks="drop")
    assert len(dropped) == 510 and steps(report)["mask_sentence_final"][2] == {"mask_not_sentence_final": 594}


def test_timedial_hand_made_rules(tmp_path, catalogue):
    path = tmp_path / "t.json"
    path.write_text(
        json.dumps(
            [
                _dialog(1, ["A:How long ?", "B: It took <MASK> .", "A: Good ."]),  # kept, cut after mask
                _dialog(2, ["A:How long ?", "B: It took <MASK> to cook . Yes .", "A: Ok ."]),  # kept with a suffix
                _dialog(3, ["A:How long ?", "B: It took <MASK> ."], c2="none"),  # 3 options only
                _dialog(4, ["A:How long ?", "B: It took <MASK> ."], i2="ten minutes"),  # duplicate option
                _dialog(5, ["A:How long ?", "B: It took a while ."]),  # no mask
                _dialog(6, ["A: After <MASK> , it was done ."], c1="an hour", i1="a year"),  # suffix after a comma
            ]
        ),
        encoding="utf-8",
    )
    items, report = run_adapter(catalogue, "timedial", raw={"test": path})
    assert [(i.id, i.context, i.target) for i in items] == [
        ("timedial-1", "A: How long?\nB: It took", None),
        ("timedial-2", "A: How long?\nB: It took", " to cook"),
        ("timedial-6", "A: After", ", it was done"),
    ]
    assert [i.options for i in items[:2]] == [[" ten minutes", " two years", " a century"]] * 2
    assert all(i.label == 0 for i in items) and items[2].options == [" an hour", " a year", " a century"]
    by_step = steps(report)
    assert by_step["four_options"][2] == {"correct2_none": 1}
    assert by_step["unusable_rows"][2] == {"duplicate_options": 1, "mask_count": 1}
    assert by_step["mask_sentence_final"] == (3, 3, {})
    changed = _step(report, "mask_sentence_final")["changed_rows"]
    assert changed["count"] == 2 and [(row["id"], row["position"]) for row in changed["first"]] == [("2", 2), ("6", 6)]
    assert _step(report, "four_options")["removed_rows"]["first"] == [
        {"file": "t.json", "id": "3", "position": 3, "reason": "correct2_none"}
    ]
    dropped, report = run_adapter(catalogue, "timedial", raw={"test": path}, mid_sentence_masks="drop")
    assert [i.id for i in dropped] == ["timedial-1"]
    assert steps(report)["mask_sentence_final"][2] == {"mask_not_sentence_final": 2}
    with pytest.raises(KeyError, match="mid_sentence_masks"):
        run_adapter(catalogue, "timedial", raw={"test": path}, mid_sentence_masks="cut")
    path.write_text(json.dumps([{"id": 1, "conversation": ["A: <MASK>"]}]))
    with pytest.raises(TaskDataError, match=r"dialog 1: missing field\(s\)"):
        run_adapter(catalogue, "timedial", raw={"test": path})


def test_timedial_suffix_is_scored_with_each_option(tmp_path, catalogue):
    """A kept mid-sentence MASK: every option's request is the option in place plus the shared suffix."""
    import pandas as pd

    from benchval.scoring.requests import build_requests
    from benchval.tasks.items import check_items

    path = tmp_path / "t.json"
    path.write_text(json.dumps([_dialog(2, ["A:How long ?", "B: It took <MASK> to cook ."])]), encoding="utf-8")
    items, _ = run_adapter(catalogue, "timedial", raw={"test": path})
    check_items(items, "timedial", "mc")
    frame = pd.DataFrame([vars(item) for item in items])
    requests = build_requests(frame, "mc")
    assert requests["context"].tolist() == ["A: How long?\nB: It took"] * 3
    assert requests["continuation"].tolist() == [" ten minutes to cook", " two years to cook", " a century to cook"]


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
    item = item_by_id(everything, "trip-dev_279")
    assert item.context == (
        "Story: John was getting the snacks ready for the party. John opened the cabinet, took out "
        "a pan and put it on the counter. John opened the fridge and got out the pizza. John put "
        "the pizza on the pan and put them into the oven."
    )
    assert item.options == [
        " John took a knife and cut the hot pizza in eight slices.",
        " John called the pizza joint to deliver a pizza.",
    ]
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
        _pair(
            "c", ["Bo lit the candle.", "Bo read a book."], ["Bo lit the candle.", "Bo blew out the sun."], conflicts=()
        ),
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
