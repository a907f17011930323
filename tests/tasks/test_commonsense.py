"""Commonsense adapters on the real files of the mirror: counts, labels, a literal item each,
the filters, and the errors for broken files."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from benchval.tasks.base import TaskDataError
from benchval.tasks.commonsense import PIQA_RUP_COLUMNS, hellaswag_preprocess, split_blank


def by_id(items):
    return {item.id: item for item in items}


# ------------------------------------------------------------------ WinoGrande


def test_winogrande_counts_labels_and_known_item(run_adapter, task_files):
    items, report = run_adapter("winogrande", task_files("winogrande"))
    assert len(items) == 1267 and report.steps == []
    assert Counter(item.label for item in items) == {0: 628, 1: 639}
    item = by_id(items)["winogrande-dev-00017"]
    assert item.context == "Michael just bought brand new wheels for his truck unlike Leslie because"
    assert item.options == [" Michael", " Leslie"]
    assert item.target == " wheels were new and perfect."
    assert item.label == 1 and item.source_row == 17


def test_winogrande_partial_requests_equal_lm_eval(run_adapter, task_files):
    """target == lm-eval's ' ' + target on every row; context + option == lm-eval's choice text
    up to the whitespace before the blank (one space here; 12 rows have two)."""
    # lm-evaluation-harness is the `bench` extra that install.sh installs: its absence is a failure.
    import lm_eval.tasks.winogrande.preprocess_winogrande as lm_eval_wino

    items, _ = run_adapter("winogrande", task_files("winogrande"))
    rows = [json.loads(line) for line in task_files("winogrande")["data"].read_text().splitlines()]
    double_spaced = 0
    for item, row in zip(items, rows):
        assert item.target == " " + lm_eval_wino.doc_to_target(row)
        assert item.label == lm_eval_wino.doc_to_text(row)
        choices = lm_eval_wino.doc_to_choice(row)
        assert [" ".join((item.context + option).split()) for option in item.options] == [
            " ".join(c.split()) for c in choices
        ]
        double_spaced += [item.context + option for option in item.options] != choices
    assert double_spaced == 12


# ------------------------------------------------------------------ WinoWhat


def test_winowhat_default_mc_filter_and_known_item(run_adapter, task_files):
    items, report = run_adapter("winowhat", task_files("winowhat"))
    (step,) = report.to_dict()["steps"]
    assert {key: step[key] for key in ("filter", "before", "after", "removed")} == {
        "filter": "in_original_experiment",
        "before": 1177,
        "after": 1161,
        "removed": {"in_original_experiment = 0": 16},
    }
    assert step["removed_rows"]["count"] == 16 and all(
        "id" in row and "line" in row for row in step["removed_rows"]["first"]
    )
    assert len(items) == 1161
    item = by_id(items)["winowhat-00003"]
    assert item.context == (
        "Lindsey liked to read graphic novels but Natalie preferred classic literature. "
        "The new Frank Miller comic at the book store was bought by"
    )
    assert item.options == [" Lindsey.", " Natalie."] and item.label == 0 and item.target is None
    assert any("no space before the '_' blank" in note for note in report.notes)


def test_winowhat_partial_mode_drops_blank_at_end(run_adapter, task_files):
    items, report = run_adapter("winowhat", task_files("winowhat"), scoring_mode="partial")
    assert report.steps[-1].name == "partial_target"
    assert report.steps[-1].removed == {"blank at the very end: no shared continuation to score": 2}
    assert len(items) == 1159 and all(item.target for item in items)
    assert Counter(item.target for item in items)["."] > 1000  # why mc is the default


def test_winowhat_all_rows_and_original_sentences(run_adapter, task_files):
    items, report = run_adapter(
        "winowhat",
        task_files("winowhat"),
        {"sentence_column": "sentence", "only_in_original_experiment": False},
        "partial",
    )
    assert len(items) == 1177 and report.steps[0].removed == {}
    assert by_id(items)["winowhat-00001"].target == " was sophisticated."


def test_split_blank_repairs_glued_blank():
    assert split_blank("The one that was careful is_.", "f", 1) == ("The one that was careful is", " ", ".", True)
    assert split_blank("_ won the race.", "f", 1) == ("", "", " won the race.", False)
    assert split_blank("The winner was  _  ", "f", 1) == ("The winner was", " ", "", False)
    assert split_blank("It was _'s turn.", "f", 1) == ("It was", " ", "'s turn.", False)
    with pytest.raises(TaskDataError, match="exactly one '_'"):
        split_blank("no blank here", "f", 4)


# ------------------------------------------------------------------ HellaSwag


def test_hellaswag_counts_labels_and_known_item(run_adapter, task_files):
    items, report = run_adapter("hellaswag", task_files("hellaswag"))
    assert len(items) == 10042 and report.steps == []
    assert Counter(item.label for item in items) == {0: 2515, 1: 2485, 2: 2584, 3: 2458}
    item = by_id(items)["hellaswag-val-00002"]
    assert item.context == "Clean and jerk: A lady walks to a barbell. She bends down and grabs the pole. The lady"
    assert item.options == [
        " swings and lands in her arms.",
        " pulls the barbell forward.",
        " pulls a rope attached to the barbell.",
        " stands and lifts the weight over her head.",
    ]
    assert item.label == 3
    wikihow = by_id(items)["hellaswag-val-05000"]
    assert wikihow.context.startswith("Health: How to use aromatherapy for depression. Know what oils help")
    assert "[" not in wikihow.context and wikihow.label == 0


def test_hellaswag_preprocess_matches_lm_eval():
    import lm_eval.tasks.hellaswag.utils as lm_eval_utils  # the `bench` extra (install.sh)

    for text in ["Health: How to x [title] Do y. [step] Then  z.", " a [header] b ", "plain"]:
        assert hellaswag_preprocess(text) == lm_eval_utils.preprocess(text)


# ------------------------------------------------------------------ Social IQA


def test_socialiqa_counts_labels_duplicates_and_known_item(run_adapter, task_files):
    items, report = run_adapter("socialiqa", task_files("socialiqa"))
    assert len(items) == 1954
    assert Counter(item.label for item in items) == {0: 643, 1: 654, 2: 657}
    (step,) = report.to_dict()["steps"]
    nothing = {"count": 0, "first": []}
    assert step == dict(
        filter="duplicates", before=1954, after=1954, removed={}, removed_rows=nothing, changed_rows=nothing
    )
    assert "24 row(s) repeat an earlier row" in report.notes[0] and "different label': 5" in report.notes[0]
    item = by_id(items)["socialiqa-dev-00001"]
    assert item.context == (
        "Q: Tracy didn't go home that evening and resisted Riley's attacks. What does Tracy need to do before this?\nA:"
    )
    assert item.options == [" make a new plan", " Go home and see Riley", " Find somewhere to go"]
    assert item.label == 2


def test_socialiqa_drop_duplicates_and_plain_prompt(run_adapter, task_files):
    items, report = run_adapter("socialiqa", task_files("socialiqa"), {"duplicates": "drop", "prompt": "plain"})
    assert len(items) == 1930
    assert report.steps[0].removed == {
        "exact duplicate of an earlier row, same label": 19,
        "exact duplicate of an earlier row, different label": 5,
    }
    assert by_id(items)["socialiqa-dev-00001"].context.startswith("Tracy didn't go home")


def test_socialiqa_filtered_is_subset_with_same_labels(run_adapter, task_files):
    filtered, report = run_adapter("socialiqa_filtered", task_files("socialiqa_filtered"))
    assert len(filtered) == 1378 and report.notes == []
    assert Counter(item.label for item in filtered) == {0: 445, 1: 468, 2: 465}
    original, _ = run_adapter("socialiqa", task_files("socialiqa"))
    known = {(item.context, tuple(item.options)): item.label for item in original}
    assert all(known[(item.context, tuple(item.options))] == item.label for item in filtered)


# ------------------------------------------------------------------ PIQA / PIQA-RUP


def test_piqa_counts_labels_and_known_item(run_adapter, task_files):
    items, _ = run_adapter("piqa", task_files("piqa"))
    assert len(items) == 1838
    assert Counter(item.label for item in items) == {0: 910, 1: 928}
    item = by_id(items)["piqa-val-00002"]
    assert item.context == "Question: dresser\nAnswer:"
    assert item.options == [" replace drawer with bobby pin", " finish, woodgrain with  bobby pin"]
    assert item.label == 1


RUP_LINE_OF_ROW_1457 = 1474  # physical line of data row 1458 (0-based row 1457): earlier rows span several lines
CORRUPT_GOAL_LINES = {
    "goal_Leet": [681, 998, 1439],
    "goal_typos": [1187, 1207, 1417, 1620, 1789],
    "goal_red_herrings": [129, 677, 1014, 1052, 1089],
}


def notes_of(report, step):
    return [note for note in report.notes if note.startswith(step + ":")]


def test_piqa_rup_default_is_a_seeded_choice_between_the_two_cleft_rewrites(run_adapter, task_files, catalogue):
    assert catalogue["tasks"]["piqa_rup"]["options"] == {
        "perturbations": ["goal_It_cleft", "goal_Wh_cleft"],
        "combine": "random_per_item",
    }
    items, report = run_adapter("piqa_rup", task_files("piqa_rup"))
    assert len(items) == 1838  # neither cleft column has a corrupt cell: nothing dropped
    columns = Counter(item.id.split("-", 2)[2] for item in items)
    assert set(columns) == {"goal_It_cleft", "goal_Wh_cleft"} and min(columns.values()) > 800
    again, _ = run_adapter("piqa_rup", task_files("piqa_rup"))
    other_seed, _ = run_adapter("piqa_rup", task_files("piqa_rup"), seed=1)
    assert [(i.id, i.context) for i in again] == [(i.id, i.context) for i in items]
    assert [i.id for i in other_seed] != [i.id for i in items]
    assert any("1160 of 1838 perturbed goals are identical to the PIQA goal" in note for note in report.notes)
    # the 13 corrupt cells of other columns are still reported by line
    unused = notes_of(report, "corrupted_rows (cells no item of this task uses)")[0]
    for column, lines in CORRUPT_GOAL_LINES.items():
        assert all(f"line {line} ({column}: perturbed goal" in unused for line in lines)


def test_piqa_rup_repairs_row_1457_from_piqa_and_reports_the_lines(run_adapter, task_files):
    items, report = run_adapter("piqa_rup", task_files("piqa_rup"))
    steps = report.to_dict()["steps"]
    assert steps[0]["filter"] == "repaired_solutions" and (steps[0]["before"], steps[0]["after"]) == (1838, 1838)
    assert steps[0]["removed"] == {} and steps[0]["removed_rows"]["count"] == 0
    assert steps[0]["changed_rows"] == {
        "count": 1,
        "first": [
            {
                "file": "PIQA_RUP.csv",
                "line": RUP_LINE_OF_ROW_1457,
                "change": "sol1, sol2 '#NAME?' taken from valid.jsonl line 1458",
            }
        ],
    }
    piqa_rows = [json.loads(line) for line in task_files("piqa")["data"].read_text(encoding="utf-8").splitlines()]
    repaired = next(item for item in items if item.source_row == 1458)
    assert repaired.options == [" " + piqa_rows[1457]["sol1"].strip(), " " + piqa_rows[1457]["sol2"].strip()]
    assert repaired.options[0].startswith(" - Wood box") and "Glass bubble" in repaired.options[0]
    piqa = {item.source_row: item for item in run_adapter("piqa", task_files("piqa"))[0]}
    assert all(
        item.options == piqa[item.source_row].options and item.label == piqa[item.source_row].label for item in items
    )


@pytest.mark.parametrize("column", ["goal_Leet", "goal_typos", "goal_red_herrings"])
def test_piqa_rup_drops_unrepairable_goals_and_names_their_lines(run_adapter, task_files, column):
    items, report = run_adapter("piqa_rup", task_files("piqa_rup"), {"perturbations": [column]})
    expected = CORRUPT_GOAL_LINES[column]
    reason = (
        "perturbed goal empty" if column == "goal_red_herrings" else "perturbed goal corrupted in the CSV ('#NAME?')"
    )
    assert report.steps[1].name == "corrupted_rows" and report.steps[1].removed == {reason: len(expected)}
    assert len(items) == 1838 - len(expected) and any(item.source_row == 1458 for item in items)
    listed = report.to_dict()["steps"][1]["removed_rows"]
    assert listed["count"] == len(expected)
    assert [row["line"] for row in listed["first"]] == expected
    assert all(row["file"] == "PIQA_RUP.csv" and row["reason"] == reason for row in listed["first"])


def test_piqa_rup_stack_counts_and_alignment_with_piqa(run_adapter, task_files):
    items, report = run_adapter(
        "piqa_rup", task_files("piqa_rup"), {"combine": "stack", "perturbations": list(PIQA_RUP_COLUMNS)}
    )
    assert report.steps[0].before == report.steps[1].before == 9 * 1838  # n_raw counts items
    assert report.steps[1].removed == {"perturbed goal empty": 5, "perturbed goal corrupted in the CSV ('#NAME?')": 8}
    listed = report.to_dict()["steps"][1]["removed_rows"]
    assert sorted(row["line"] for row in listed["first"]) == sorted(sum(CORRUPT_GOAL_LINES.values(), []))
    assert not notes_of(report, "corrupted_rows (cells no item of this task uses)")
    known = by_id(items)["piqa_rup-00001-goal_red_herrings"]
    assert known.context == (
        "Question: After returning from an adventurous trip from the Andes mountains, you start "
        "pondering on the question - How do I ready a guinea pig cage for its new occupants?\nAnswer:"
    )


def test_piqa_rup_rejects_unknown_column(run_adapter, task_files):
    with pytest.raises(ValueError, match="goal_nope"):
        run_adapter("piqa_rup", task_files("piqa_rup"), {"perturbations": ["goal_nope"]})


def test_piqa_rup_repair_needs_row_aligned_piqa_file(run_adapter, task_files, tmp_path):
    files = broken_copy(tmp_path, task_files("piqa_rup"), "piqa", lambda ls: ls[:5] + [ls[6], ls[5]] + ls[7:])
    with pytest.raises(TaskDataError, match=r"PIQA_RUP.csv, line 7: goal .* differs from valid.jsonl line 6"):
        run_adapter("piqa_rup", files)
    files = broken_copy(tmp_path, task_files("piqa_rup"), "piqa", lambda ls: ls[:-1])
    with pytest.raises(TaskDataError, match="valid.jsonl: 1837 rows but PIQA_RUP.csv has 1838"):
        run_adapter("piqa_rup", files)


# ------------------------------------------------------------------ broken files


def broken_copy(tmp_path, files, key, edit):
    copied = {}
    for name, path in files.items():
        copied[name] = tmp_path / path.name
        shutil.copy(path, copied[name])
    lines = copied[key].read_text(encoding="utf-8").splitlines(keepends=True)
    copied[key].write_text("".join(edit(lines)), encoding="utf-8")
    return copied


@pytest.mark.parametrize(
    "task, key, edit, message",
    [
        (
            "winogrande",
            "data",
            lambda ls: ls[:41] + ['{"sentence": oops\n'] + ls[42:],
            r"winogrande_dev.jsonl, line 42: invalid JSON",
        ),
        (
            "hellaswag",
            "data",
            lambda ls: ls[:2] + ['{"ctx_a": "x"}\n'] + ls[3:],
            r"hellaswag_val.jsonl, line 3: missing field 'activity_label'",
        ),
        ("piqa", "labels", lambda ls: ls[:9] + ["7\n"] + ls[10:], r"valid-labels.lst, line 10: label '7'"),
        (
            "winowhat",
            "data",
            lambda ls: ls[:5] + ["a,b,c,d,e,f,g,h,i\r\n"] + ls[6:],
            r"WinoWhat.csv, line 6: row has 9 fields, header has 8",
        ),
    ],
    ids=["malformed_jsonl_line", "missing_field", "bad_label_value", "csv_row_with_extra_field"],
)
def test_broken_file_names_file_and_line(tmp_path, run_adapter, task_files, task, key, edit, message):
    files = broken_copy(tmp_path, task_files(task), key, edit)
    with pytest.raises(TaskDataError, match=message):
        run_adapter(task, files)


def test_label_count_mismatch_names_both_files(tmp_path, run_adapter, task_files):
    files = broken_copy(tmp_path, task_files("socialiqa"), "labels", lambda ls: ls[:-1])
    with pytest.raises(TaskDataError) as error:
        run_adapter("socialiqa", files)
    assert "dev-labels.lst" in str(error.value) and "1953 labels" in str(error.value)
    assert "dev.jsonl has 1954 items" in str(error.value)


def test_disagreeing_answer_field_is_an_error(tmp_path, run_adapter, task_files):
    def flip(lines):
        row = json.loads(lines[0])
        row["answer"] = "1" if row["answer"] == "2" else "2"
        return [json.dumps(row) + "\n"] + lines[1:]

    files = broken_copy(tmp_path, task_files("winogrande"), "data", flip)
    with pytest.raises(TaskDataError, match="line 1: answer"):
        run_adapter("winogrande", files)


def test_piqa_rup_changed_goals_only_keeps_the_rows_the_revision_changed(run_adapter, task_files, catalogue):
    """1,160 of 1,838 cleft goals equal the PIQA goal: the variant keeps the other 678, and says why."""
    spec = catalogue["tasks"]["piqa_rup__changed_goals"]
    assert spec["role"] == "cs_variant" and spec["pairs_with"] == "piqa" and spec["options"]["changed_goals_only"]
    items, report = run_adapter("piqa_rup__changed_goals", task_files("piqa_rup"))
    assert len(items) == 1838 - 1160
    step = report.to_dict()["steps"][-1]
    assert step["filter"] == "unchanged_goals"
    assert step["removed"] == {"perturbed goal identical to the PIQA goal": 1160}
    piqa = {item.source_row: item for item in run_adapter("piqa", task_files("piqa"))[0]}
    assert all(item.context != piqa[item.source_row].context for item in items)
    everything, _ = run_adapter("piqa_rup", task_files("piqa_rup"))  # the same seeded choice of cleft per row
    assert {i.id.replace("piqa_rup__changed_goals", "piqa_rup") for i in items} < {i.id for i in everything}
