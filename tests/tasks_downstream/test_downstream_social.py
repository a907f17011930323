"""EPITOME (False Beliefs, Indirect Requests), CEI and SARC7 adapters."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchval.tasks.base import TaskDataError
from downstream_helpers import item_by_id, run_adapter, steps

FB_HEADER = "row,item_id,item,passage,condition,first_mention,start,end,critical_a\n"
IR_HEADER = "item,passage,speaker_knowledge,knowledge_cue,critical_q,critical_a,critical_utterance\n"


def test_false_beliefs_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "false_beliefs", mirror=mirror)
    assert len(items) == 192 and steps(report)["unusable_rows"] == (192, 192, {})
    assert Counter(item.label for item in items) == {0: 96, 1: 96}  # false belief -> start, true -> end
    item = items[0]
    assert item.id == "epitome_fb-7_fb_1_s_e_ex" and item.source_row == 2
    assert item.context.endswith("David returns home and wants to put out the wine. David thinks the wine is in the")
    assert item.options == [" garage", " fridge"] and item.label == 0
    true_belief = item_by_id(items, "epitome_fb-7_tb_1_s_e_ex")
    assert true_belief.label == 1


def test_false_beliefs_hand_made_rows(tmp_path, catalogue):
    path = tmp_path / "fb.csv"
    path.write_text(
        FB_HEADER
        + '0,a,1,"Sam puts the ball in the box. Sam thinks the ball is in the [MASK].",'
        + "False Belief,S,box,bag,box\n"
        + '1,b,1,"No mask here.",False Belief,S,box,bag,box\n'
        + "2,c,1,,False Belief,S,box,bag,box\n"
        + '3,d,1,"The [MASK] is red.",False Belief,S,box,bag,box\n'
    )
    items, report = run_adapter(catalogue, "false_beliefs", raw={"false_belief": path})
    assert [(i.id, i.context, i.options, i.label) for i in items] == [
        ("epitome_fb-a", "Sam puts the ball in the box. Sam thinks the ball is in the", [" box", " bag"], 0)
    ]
    assert steps(report)["unusable_rows"] == (4, 1, {"mask_not_final": 2, "missing_passage": 1})
    path.write_text(FB_HEADER + '0,a,1,"The ball is in the [MASK].",False Belief,S,box,bag,car\n')
    with pytest.raises(TaskDataError, match=r"fb.csv, line 2: critical_a 'car' is not exactly one of start/end"):
        run_adapter(catalogue, "false_beliefs", raw={"false_belief": path})


def test_indirect_requests_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "indirect_requests", mirror=mirror)
    # SOURCE.md: items 7-16 (40 rows) lack the critical utterance and question
    assert steps(report)["unusable_rows"] == (64, 24, {"missing_critical_utterance": 40})
    # every one of the 40 is named by file and line (the CSV has multi-line passages: rows 25-64
    # start on lines well past 26); the list stops at 50, the count is complete
    removed = next(step for step in report["steps"] if step["filter"] == "unusable_rows")["removed_rows"]
    assert removed["count"] == 40 and len(removed["first"]) == 40
    assert {row["file"] for row in removed["first"]} == {"indirect_request_ir.csv"}
    assert {row["reason"] for row in removed["first"]} == {"missing_critical_utterance"}
    lines = [row["line"] for row in removed["first"]]
    assert lines == sorted(set(lines)) and min(lines) > max(item.source_row for item in items)
    assert Counter(item.label for item in items) == {0: 12, 1: 12}
    item = items[0]
    assert item.id == "epitome_ir-1-aware-explicit"
    assert item.context.startswith("You and your friend Jonathan are taking a road trip.")
    assert item.context.endswith(
        "As you leave the station, Jonathan shivers in his seat.\n\n"
        'He turns to you and says, "Man, it\'s really cold in here."\n\n'
        "Question: Do you think he is making a request?\nAnswer:"
    )
    assert "\n\n\n" not in item.context and " \n" not in item.context
    assert item.options == [" Yes", " No"] and item.label == 1  # aware speaker -> not a request


def test_indirect_requests_hand_made_rows(tmp_path, catalogue):
    path = tmp_path / "ir.csv"
    path.write_text(
        "\ufeff"
        + IR_HEADER
        + '1,"It is cold.",unaware,explicit,Is it a request?,Yes,"He says, ""Brr."""\n'
        + '2,"It is cold.",aware,explicit,,No,"He says, ""Brr."""\n'
        + '3,"It is cold.",aware,explicit,Is it?,No,\n',
        encoding="utf-8",
    )
    items, report = run_adapter(catalogue, "indirect_requests", raw={"indirect_request": path})
    assert [(i.id, i.label) for i in items] == [("epitome_ir-1-unaware-explicit", 0)]
    assert items[0].context == 'It is cold.\n\nHe says, "Brr."\n\nQuestion: Is it a request?\nAnswer:'
    assert steps(report)["unusable_rows"] == (3, 1, {"missing_critical_question": 1, "missing_critical_utterance": 1})
    path.write_text(IR_HEADER + '1,"It is cold.",unaware,explicit,Is it?,Maybe,"Brr."\n')
    with pytest.raises(TaskDataError, match=r"line 2: critical_a 'Maybe' is not one of"):
        run_adapter(catalogue, "indirect_requests", raw={"indirect_request": path})


EMOTIONS = ["anger", "anticipation", "disgust", "fear", "joy", "sadness", "surprise", "trust"]


def test_cei_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "cei", mirror=mirror)
    # SOURCE.md: agreement 1.0 on 39 scenarios, 0.667 on 138, 0.333 on 123
    assert steps(report)["ambiguous_labels"] == (300, 39, {"agreement<1": 261})
    two_of_three, _ = run_adapter(catalogue, "cei", mirror=mirror, min_agreement=0.6)
    assert len(two_of_three) == 39 + 138
    item = item_by_id(items, "cei-CEI-0015")
    assert item.context == (
        "After a tense exchange about who borrowed Dad's car without asking, the father hold up "
        "his son's distinctive jacket left in car this morning.\n"
        'The son says to the father: "You got a jacket just like mine!"'
    )
    feelings = ("angry", "expectant", "disgusted", "afraid", "happy", "sad", "surprised", "trusting")
    assert item.options == [f" The speaker feels {feeling}." for feeling in feelings]
    assert EMOTIONS[item.label] == "anger" and item.source_row == 15
    # calibrated: every item has the same statements, so the N/A priors are one per label
    assert {tuple(i.options) for i in items} == {tuple(item.options)}


def _cei_file(tmp_path, scenarios):
    path = tmp_path / "cei.json"
    path.write_text(json.dumps({"scenarios": scenarios}), encoding="utf-8")
    return path


def _scenario(sid, emotion="joy", agreement=1.0, **extra):
    return {
        "scenario_id": sid,
        "context": "A party.",
        "utterance": "Great.",
        "speaker_role": "host",
        "listener_role": "guest",
        "ground_truth": {"emotion": emotion, "annotator_agreement": agreement},
        **extra,
    }


def test_cei_hand_made_filters_and_errors(tmp_path, catalogue):
    path = _cei_file(tmp_path, [_scenario("A"), _scenario("B", agreement=0.667), _scenario("C", utterance=" ")])
    items, report = run_adapter(catalogue, "cei", raw={"scenarios": path})
    assert [(i.id, i.label) for i in items] == [("cei-A", EMOTIONS.index("joy"))]
    assert items[0].context == 'A party.\nThe host says to the guest: "Great."'
    assert steps(report)["missing_text"] == (3, 2, {"missing_text": 1})
    assert steps(report)["ambiguous_labels"] == (2, 1, {"agreement<1": 1})
    with pytest.raises(TaskDataError, match=r"scenarios\[0\] \(A\): emotion 'love' is not one of"):
        run_adapter(catalogue, "cei", raw={"scenarios": _cei_file(tmp_path, [_scenario("A", emotion="love")])})
    with pytest.raises(TaskDataError, match="annotator_agreement must be a number"):
        run_adapter(catalogue, "cei", raw={"scenarios": _cei_file(tmp_path, [_scenario("A", agreement=None)])})


def test_sarc7_real(catalogue, mirror):
    items, report = run_adapter(catalogue, "sarc7", mirror=mirror)
    by_step = steps(report)
    # SOURCE.md: 343 "not sarcasm" rows after normalising case; 23 typed rows MUStARD calls non-sarcastic
    assert by_step["label_set"] == (690, 347, {"label:not sarcasm": 343})
    assert by_step["label_conflicts"] == (347, 324, {"typed_sarcasm_but_mustard_not_sarcastic": 23})
    assert by_step["insufficient_context"] == (324, 240, {"context_turns<2": 84})
    removed = next(step for step in report["steps"] if step["filter"] == "insufficient_context")["removed_rows"]
    assert removed["count"] == 84 and len(removed["first"]) == 50
    assert all(row["file"] == "sarcasmdata.json" and "id" in row and "position" in row for row in removed["first"])
    item = item_by_id(items, "sarc7-1_70")
    assert item.context.startswith("Howard: This is one of my favorite places to kick back after a quest.")
    assert item.context.endswith(
        "Howard: You'll think about it?\nPenny: I don't think I'll be able to stop thinking about it."
    )
    assert item.options[item.label] == " The speaker is using deadpan sarcasm."
    assert len(item.options) == 7


def _sarc_record(label, sarcasm=True, turns=3, words_per_turn=20):
    return {
        "utterance": "Oh, great.",
        "speaker": "SHELDON",
        "context": [" ".join(["word"] * words_per_turn)] * turns,
        "context_speakers": ["LEONARD"] * turns,
        "show": "BBT",
        "sarcasm": sarcasm,
        "label": label,
    }


def test_sarc7_hand_made_filters(tmp_path, catalogue):
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "a": _sarc_record("Deadpan sarcasm "),  # kept: casing and trailing space normalised
                "b": _sarc_record("Not sarcasm", sarcasm=False),  # label set
                "c": _sarc_record("polite sarcasm", sarcasm=False),  # conflicts with MUStARD
                "d": _sarc_record("polite sarcasm", turns=1, words_per_turn=60),  # one turn only
                "e": _sarc_record("polite sarcasm", turns=2, words_per_turn=10),  # 20 words only
            }
        ),
        encoding="utf-8",
    )
    items, report = run_adapter(catalogue, "sarc7", raw={"sarcasm": path})
    assert (items[0].id, items[0].options[items[0].label]) == ("sarc7-a", " The speaker is using deadpan sarcasm.")
    assert items[0].context.splitlines()[-1] == "Sheldon: Oh, great."
    assert steps(report)["label_set"][2] == {"label:not sarcasm": 1}
    assert steps(report)["label_conflicts"][2] == {"typed_sarcasm_but_mustard_not_sarcastic": 1}
    assert steps(report)["insufficient_context"][2] == {"context_turns<2": 1}
    assert [i.id for i in items] == ["sarc7-a", "sarc7-e"]  # 2 turns of 10 words: enough (no word minimum)
    worded, report = run_adapter(catalogue, "sarc7", raw={"sarcasm": path}, min_context_words=40)
    assert [i.id for i in worded] == ["sarc7-a"]
    assert steps(report)["insufficient_context"][2] == {"context_turns<2": 1, "context_words<40": 1}
    removed = report["steps"][-1]["removed_rows"]["first"]
    assert [(row["id"], row["position"], row["reason"]) for row in removed] == [
        ("d", 4, "context_turns<2"),
        ("e", 5, "context_words<40"),
    ]
    again, _ = run_adapter(catalogue, "sarc7", raw={"sarcasm": path})
    assert [i.id for i in again] == ["sarc7-a", "sarc7-e"]  # no randomness: the same items every run
    path.write_text(json.dumps({"a": {**_sarc_record("polite sarcasm"), "context_speakers": []}}))
    with pytest.raises(TaskDataError, match="record 'a': context and context_speakers differ in length"):
        run_adapter(catalogue, "sarc7", raw={"sarcasm": path})


# src/benchval/tasks/catalogue/sarc7/README.md lists these: n under neighbouring context thresholds (label filters
# as configured)
SARC7_WORDS = (0, 20, 40)  # the table's columns: min_context_words
SARC7_NEIGHBOURS = {1: (324, 191, 96), 2: (240, 176, 92), 3: (177, 155, 92), 4: (122, 116, 85)}  # min_context_turns: n


def test_sarc7_neighbouring_thresholds_as_documented(catalogue, mirror):
    for turns, row in SARC7_NEIGHBOURS.items():
        for words, n in zip(SARC7_WORDS, row, strict=True):
            items, _ = run_adapter(catalogue, "sarc7", mirror=mirror, min_context_turns=turns, min_context_words=words)
            assert len(items) == n, (turns, words)
