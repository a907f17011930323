"""BLiMP and MMLU-Redux adapters (controls)."""

from __future__ import annotations

import pytest

from benchval.tasks.base import TaskDataError
from downstream_helpers import item_by_id, run_adapter, steps, write_jsonl


def test_blimp_real_counts_labels_and_known_item(catalogue, mirror):
    items, report = run_adapter(catalogue, "blimp", mirror=mirror)
    assert len(items) == 4000
    assert steps(report)["read"] == (4000, 4000, {})
    first = next(item for item in items if item.id == "blimp-adjunct_island-0")
    assert first.context == ""
    assert sorted(first.options) == sorted(
        ["Who should Derek hug after shocking Richard?", "Who should Derek hug Richard after shocking?"]
    )
    assert first.options[first.label] == "Who should Derek hug after shocking Richard?"
    # the seeded per-item order puts the grammatical sentence at both positions
    share_first = sum(item.label == 0 for item in items) / len(items)
    assert 0.45 < share_first < 0.55


def test_blimp_order_is_seeded_per_item(catalogue, mirror):
    a, _ = run_adapter(catalogue, "blimp", mirror=mirror, paradigms=["adjunct_island"])
    b, _ = run_adapter(catalogue, "blimp", mirror=mirror, paradigms=["adjunct_island"])
    c, _ = run_adapter(catalogue, "blimp", mirror=mirror, paradigms=["adjunct_island"], seed=1)
    assert [i.options for i in a] == [i.options for i in b]
    assert [i.label for i in a] != [i.label for i in c]
    fixed, _ = run_adapter(catalogue, "blimp", mirror=mirror, paradigms=["adjunct_island"], shuffle_options=False)
    assert {i.label for i in fixed} == {0}


def test_blimp_corrupted_rows_raise(tmp_path, catalogue):
    good = {"sentence_good": "A cat sleeps.", "sentence_bad": "A cat sleep.", "pairID": "0"}
    path = write_jsonl(tmp_path / "p.jsonl", [good, {**good, "pairID": "1", "sentence_bad": ""}])
    with pytest.raises(TaskDataError, match=r"p.jsonl, line 2: empty sentence_good or sentence_bad"):
        run_adapter(catalogue, "blimp", raw={"p": path}, paradigms=["p"])
    path.write_text('{"sentence_good": "x"\n', encoding="utf-8")
    with pytest.raises(TaskDataError, match=r"line 1: invalid JSON"):
        run_adapter(catalogue, "blimp", raw={"p": path}, paradigms=["p"])


def test_unknown_option_is_rejected(catalogue, mirror):
    with pytest.raises(KeyError, match="unknown option"):
        run_adapter(catalogue, "blimp", mirror=mirror, paradigm=["adjunct_island"])


def test_mmlu_redux_real_counts_and_error_type_filter(catalogue, mirror):
    items, report = run_adapter(catalogue, "mmlu_redux", mirror=mirror)
    before, after, removed = steps(report)["error_types"]
    assert (before, after) == (300, 276)
    # SOURCE.md: abstract_algebra 10 non-OK, formal_logic 13, college_mathematics 1
    assert removed == {
        "error_type:bad question clarity": 4,
        "error_type:wrong groundtruth": 7,
        "error_type:no correct answer": 3,
        "error_type:expert": 1,
        "error_type:multiple correct answers": 9,
    }
    assert all(len(item.options) == 4 and all(o.startswith(" ") for o in item.options) for item in items)
    # "OK" and "Ok" both count as ok: all 99 OK college_mathematics rows are kept
    assert sum(item.id.startswith("mmlu_redux-college_mathematics") for item in items) == 99
    everything, _ = run_adapter(
        catalogue,
        "mmlu_redux",
        mirror=mirror,
        keep_error_types=[
            "ok",
            "wrong groundtruth",
            "bad question clarity",
            "expert",
            "no correct answer",
            "multiple correct answers",
        ],
    )
    assert len(everything) == 300


def test_mmlu_redux_known_item(catalogue, mirror):
    items, _ = run_adapter(catalogue, "mmlu_redux", mirror=mirror)
    item = item_by_id(items, "mmlu_redux-abstract_algebra-002")
    assert item.context == (
        "Question: Determine whether the polynomial in Z[x] satisfies an Eisenstein "
        "criterion for irreducibility over Q. x^2 - 12\nAnswer:"
    )
    assert item.options == [" Yes, with p=2.", " Yes, with p=3.", " Yes, with p=5.", " No."]
    assert item.label == 1


def test_mmlu_redux_corrupted_rows(tmp_path, catalogue):
    header = "question,choices,answer,error_type,source,correct_answer,potential_reason\n"
    path = tmp_path / "s.csv"
    path.write_text(header + "\"Q1?\",\"['a', 'b', 'c', 'd']\",2,ok,,,\n\"Q2?\",\"['a', 'b']\",0,ok,,,\n")
    with pytest.raises(TaskDataError, match=r"s.csv, line 3: choices must be a list of 4 strings"):
        run_adapter(catalogue, "mmlu_redux", raw={"s": path}, subjects=["s"])
    path.write_text(header + "\"Q1?\",\"['a', 'b', 'c', 'd']\",4,ok,,,\n")
    with pytest.raises(TaskDataError, match=r"line 2: answer must be 0..3"):
        run_adapter(catalogue, "mmlu_redux", raw={"s": path}, subjects=["s"])
    path.write_text("question,choices\n")
    with pytest.raises(TaskDataError, match=r"missing column"):
        run_adapter(catalogue, "mmlu_redux", raw={"s": path}, subjects=["s"])
    path.write_text(
        header
        + "\"Q1?\",\"['a', 'b', 'c', 'd']\",1,Wrong Groundtruth,,,\n"
        + "\"Q2?\",\"['a', 'b', 'c', 'd']\",1,OK,,,\n"
    )
    items, report = run_adapter(catalogue, "mmlu_redux", raw={"s": path}, subjects=["s"])
    assert [i.id for i in items] == ["mmlu_redux-s-001"]
    assert steps(report)["error_types"] == (2, 1, {"error_type:wrong groundtruth": 1})


def test_gpqa_real_counts_shuffle_and_known_item(catalogue, mirror):
    items, report = run_adapter(catalogue, "gpqa_diamond", mirror=mirror)
    assert steps(report)["read"] == (198, 198, {})
    # two questions list the same distractor twice: reported, not silent
    assert steps(report)["duplicate_answers"] == (198, 196, {"duplicate_answers": 2})
    assert len(items) == 196
    labels = [item.label for item in items]
    assert set(labels) == {0, 1, 2, 3} and max(labels.count(k) for k in range(4)) < 70
    item = item_by_id(items, "gpqa-rec06pnAkLOr2t2mp")
    assert item.context.startswith("Question: Two quantum states with energies E1 and E2 have a lifetime")
    assert item.context.endswith("so that they can be clearly resolved?\nAnswer:")
    assert sorted(item.options) == sorted([" 10^-4 eV", " 10^-11 eV", " 10^-8 eV", " 10^-9 eV"])
    assert item.options[item.label] == " 10^-4 eV"


def _gpqa_zip(tmp_path, rows, password=b"pw"):
    """A ZipCrypto-encrypted zip holding a GPQA-shaped CSV (written with the system zip tool)."""
    import csv
    import io
    import shutil
    import subprocess

    if shutil.which("zip") is None:
        pytest.skip("the 'zip' tool is needed to write an encrypted zip")
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        ["Question", "Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3", "Record ID"]
    )
    writer.writerows(rows)
    folder = tmp_path / "dataset"
    folder.mkdir()
    (folder / "gpqa_diamond.csv").write_text(buffer.getvalue(), encoding="utf-8")
    subprocess.run(
        ["zip", "-q", "-P", password.decode(), "g.zip", "dataset/gpqa_diamond.csv"], cwd=tmp_path, check=True
    )
    return tmp_path / "g.zip"


def test_gpqa_hand_made_zip(tmp_path, catalogue):
    path = _gpqa_zip(tmp_path, [["Q?", "right", "w1", "w2", "w3", "r1"], ["Q2?", "ok", "x", "x", "y", "r2"]])
    items, report = run_adapter(catalogue, "gpqa_diamond", raw={"archive": path}, zip_password="pw")
    assert [i.id for i in items] == ["gpqa-r1"]
    assert items[0].options[items[0].label] == " right" and len(items[0].options) == 4
    assert steps(report)["duplicate_answers"] == (2, 1, {"duplicate_answers": 1})
    with pytest.raises(TaskDataError, match="wrong password"):
        run_adapter(catalogue, "gpqa_diamond", raw={"archive": path}, zip_password="nope")
    with pytest.raises(TaskDataError, match="member not in the zip"):
        run_adapter(catalogue, "gpqa_diamond", raw={"archive": path}, zip_password="pw", zip_member="x.csv")
