"""The strict readers of item-level responses: every quirk of the sources (SOURCE.md) read by its rule,
every malformed record failing with its file and index (benchval.items.readers)."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pandas as pd
import pytest

from benchval.items import readers
from benchval.items.readers import ResponseReadError


def write_nlu(folder, dataset, rows, header=None):
    n_items = len(rows[0][1])
    header = header or ["userid"] + [f"{dataset}_{i}" for i in range(n_items)]
    lines = [",".join(header)] + [",".join([run, *cells]) for run, cells in rows]
    (folder / f"{dataset}_irt_all_coded.csv").write_text("\n".join(lines) + "\n")


def test_nlu_reads_runs_families_and_mctaco_floats(tmp_path):
    write_nlu(tmp_path, "hellaswag", [("roberta-base-100M-2_best", ["1", "0"]), ("bert-base-cased_10", ["0", "1"])])
    write_nlu(
        tmp_path, "mctaco", [("roberta-base-100M-2_best", ["1.0", "0.0"]), ("bert-base-cased_10", ["0.0", "1.0"])]
    )
    frame = readers.read_nlu_test_sets(tmp_path, ["hellaswag", "mctaco"])
    assert list(frame.columns) == ["source", "task", "item_id", "model", "correct", "family"]
    assert len(frame) == 8 and frame["correct"].dtype == float
    assert set(frame["correct"]) == {0.0, 1.0}
    row = frame[(frame["task"] == "mctaco") & (frame["model"] == "roberta-base-100M-2_best")]
    assert row["family"].unique().tolist() == ["roberta-base-100M-2"]  # the name before the last "_", seed kept
    assert row.set_index("item_id")["correct"].to_dict() == {"mctaco_0": 1.0, "mctaco_1": 0.0}
    assert frame.attrs["filters"][0]["count"] == 0


def test_nlu_empty_cell_is_dropped_and_counted(tmp_path):
    write_nlu(tmp_path, "piqa", [("roberta-large_1", ["1", ""]), ("roberta-large_best", ["1", "1"])])
    frame = readers.read_nlu_test_sets(tmp_path, ["piqa"])
    assert len(frame) == 3 and not frame["correct"].isna().any()
    dropped = frame.attrs["filters"][0]
    assert dropped["count"] == 1 and dropped["records"][0] == {
        "file": "piqa_irt_all_coded.csv",
        "line": 2,
        "model": "roberta-large_1",
        "item_id": "piqa_1",
    }


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("roberta-large_best", ["1", "0.5"])], "line 2, column 'piqa_1': cell '0.5' is not 0 or 1"),
        ([("roberta-large_best", ["1", "yes"])], "line 2, column 'piqa_1': cell 'yes' is not 0 or 1"),
        (
            [("roberta-large_best", ["1", "1"]), ("roberta-large_best", ["0", "1"])],
            "line 3: run 'roberta-large_best' twice",
        ),
        ([("roberta-large_final", ["1", "1"])], "line 2: run 'roberta-large_final' does not end in"),
        ([("roberta-large_best", ["1"])], "line 2: 2 cells, header has 3"),
    ],
)
def test_nlu_malformed_record_fails_naming_file_and_line(tmp_path, rows, message):
    header = ["userid", "piqa_0", "piqa_1"]
    lines = [",".join(header)] + [",".join([run, *cells]) for run, cells in rows]
    (tmp_path / "piqa_irt_all_coded.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(ResponseReadError, match="piqa_irt_all_coded.csv: " + message.replace("(", r"\(")):
        readers.read_nlu_test_sets(tmp_path, ["piqa"])


def test_nlu_bad_header_and_missing_file_fail(tmp_path):
    write_nlu(tmp_path, "piqa", [("roberta-large_best", ["1"])], header=["run", "piqa_0"])
    with pytest.raises(ResponseReadError, match="line 1: header must start with 'userid'"):
        readers.read_nlu_test_sets(tmp_path, ["piqa"])
    with pytest.raises(ResponseReadError, match="no such file"):
        readers.read_nlu_test_sets(tmp_path, ["quail"])


def mmlu_record(qid, answer="A", pred="A"):
    return {"question_id": qid, "answer": answer, "answer_index": "0", "pred": pred, "category": "law"}


def write_mmlu(folder, model, records):
    with zipfile.ZipFile(folder / f"model_outputs_{model}_5shots.zip", "w") as archive:
        archive.writestr(f"model_outputs_{model}_5shots.json", json.dumps(records))


def test_mmlu_pro_quirks(tmp_path):
    # DeepSeek-Coder-V2: strings among the records; Llama: ids as strings; a null pred; Gemini: fewer questions
    write_mmlu(tmp_path, "DeepSeek-Coder-V2", [mmlu_record(1), "other", "total", mmlu_record(2, pred="B")])
    write_mmlu(tmp_path, "Llama-2-7b-hf", [mmlu_record("1"), mmlu_record("2", pred=None), mmlu_record("3")])
    write_mmlu(tmp_path, "gemini-1.5-pro-002", [mmlu_record(1)])
    frame = readers.read_mmlu_pro_outputs(tmp_path)
    by = frame.set_index(["model", "item_id"])["correct"]
    assert by[("DeepSeek-Coder-V2", "1")] == 1.0 and by[("DeepSeek-Coder-V2", "2")] == 0.0
    assert by[("Llama-2-7b-hf", "2")] == 0.0  # null pred counted wrong, by the default rule
    assert ("gemini-1.5-pro-002", "2") not in by.index  # a shorter file: absent, never NaN
    assert len(frame) == 6 and not frame["correct"].isna().any()
    assert set(frame["category"]) == {"law"}  # the question's subject (per-category paired comparisons)
    filters = {f["rule"]: f for f in frame.attrs["filters"]}
    assert filters["non_record"]["count"] == 2
    assert [r["index"] for r in filters["non_record"]["records"]] == [1, 2]
    assert filters["null_pred_wrong"]["count"] == 1
    dropped = readers.read_mmlu_pro_outputs(tmp_path, null_pred="drop")
    assert len(dropped) == 5 and ("Llama-2-7b-hf", "2") not in dropped.set_index(["model", "item_id"]).index
    assert {f["rule"]: f["count"] for f in dropped.attrs["filters"]}["null_pred_drop"] == 1


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([mmlu_record(1), mmlu_record("1")], "record 1: question_id 1 twice"),
        ([{"question_id": 1, "answer": "A"}], r"record 0: missing key\(s\) \['pred'\]"),
        ([mmlu_record(1, pred="K")], "record 0: pred 'K' is neither null nor a letter"),
        ([mmlu_record(1, answer=3)], "record 0: answer 3 is not a letter"),
        ([mmlu_record("x1")], "record 0: question_id 'x1' is not an integer id"),
        ([{**mmlu_record(1), "category": None}], "record 0: category None is not a subject name"),
    ],
)
def test_mmlu_pro_malformed_record_fails_naming_file_and_index(tmp_path, records, message):
    write_mmlu(tmp_path, "Yi-6B", records)
    with pytest.raises(ResponseReadError, match="model_outputs_Yi-6B_5shots.zip: " + message):
        readers.read_mmlu_pro_outputs(tmp_path)


def test_mmlu_pro_model_name_and_unknown_rule(tmp_path):
    assert readers.mmlu_pro_model("x/model_outputs_Meta-Llama-3_1-8B_5shots.zip") == "Meta-Llama-3_1-8B"
    with pytest.raises(ResponseReadError):
        readers.mmlu_pro_model("outputs_Yi.zip")
    with pytest.raises(ValueError, match="null_pred"):
        readers.read_mmlu_pro_outputs(tmp_path, null_pred="random")


def test_write_responses_refuses_nan_and_duplicates_and_writes_filters(tmp_path):
    frame = pd.DataFrame({"source": "s", "task": "t", "item_id": ["1", "2"], "model": "m", "correct": [1.0, np.nan]})
    with pytest.raises(ResponseReadError, match="never NaN"):
        readers.write_responses(frame, tmp_path / "r.parquet")
    twice = frame.assign(item_id="1", correct=1.0)
    with pytest.raises(ResponseReadError, match="twice"):
        readers.write_responses(twice, tmp_path / "r.parquet")
    good = frame.assign(correct=[1.0, 0.0])
    good.attrs["filters"] = [{"rule": "x", "why": "y", "count": 3, "records": []}]
    readers.write_responses(good, tmp_path / "r.parquet")
    summary = json.loads((tmp_path / "r.filters.json").read_text())
    assert summary["rows"] == 2 and summary["filters"][0]["count"] == 3
    assert readers.read_responses(tmp_path / "r.parquet")["correct"].tolist() == [1.0, 0.0]


def test_lmeval_samples_reader(tmp_path):
    folder = tmp_path / "org__model"
    folder.mkdir()
    records = [
        {
            "doc_id": 0,
            "target": 1,
            "arguments": [["q", " a"], ["q", " b"]],
            "filtered_resps": [[-2.0, False], [-1.0, True]],
        },
        {
            "doc_id": 1,
            "target": 0,
            "arguments": [["q", " a"], ["q", " b"]],
            "filtered_resps": [[-3.0, False], [-1.0, True]],
        },
    ]
    path = folder / "samples_hellaswag_2024-05-01T10-00-00.123.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    frame = readers.read_lmeval_samples([path])
    assert frame["model"].unique().tolist() == ["org__model"] and frame["task"].unique().tolist() == ["hellaswag"]
    assert frame["correct"].tolist() == [1.0, 0.0]
    assert frame["option_loglik"].tolist() == [[-2.0, -1.0], [-3.0, -1.0]]
    own = tmp_path / "results/lmeval/m1/piqa/samples.jsonl"
    own.parent.mkdir(parents=True)
    own.write_text(path.read_text())
    assert readers.lmeval_model_task(own) == ("m1", "piqa")


def test_scores_reader_uses_the_projects_prediction(tmp_path):
    from benchval.scoring.store import write_scores
    from benchval.tasks.base import FilterReport, Item
    from benchval.tasks.items import write_items

    items = [Item("t-0", "q0", [" a", " bb"], 1, 2), Item("t-1", "q1", [" a", " bb"], 0, 3)]
    meta = {
        "task": "toy",
        "role": "cs_original",
        "pairs_with": None,
        "axes": [],
        "scoring_mode": "mc",
        "metrics": ["accuracy"],
        "n_raw": 2,
        "n_final": 2,
    }
    write_items(items, meta, FilterReport("toy"), tmp_path / "results/tasks/toy.parquet")
    # per-token scores: t-0 option 1 (-1.0 over 2 tokens = -0.5) beats option 0 (-0.9): right;
    # t-1 option 1 (-0.2 / 2) beats option 0 (-0.3): wrong. A sum rule would call t-0 wrong.
    rows = []
    for item, logliks in (("t-0", (-0.9, -1.0)), ("t-1", (-0.3, -0.2))):
        for index, (loglik, tokens) in enumerate(zip(logliks, (1, 2))):
            rows.append(
                {
                    "request_id": f"{item}/{index}",
                    "item_id": item,
                    "option_index": index,
                    "kind": "option",
                    "context": "q",
                    "continuation": "x",
                    "logprob_sum": loglik,
                    "n_tokens": tokens,
                    "n_chars": 2,
                    "n_bytes": 2,
                    "token_logprobs": [loglik / tokens] * tokens,
                    "is_greedy": False,
                }
            )
    path = write_scores(pd.DataFrame(rows), tmp_path / "results/scores/m1/toy.parquet", {"model": "m1"})
    frame = readers.read_scores([path])
    assert frame.set_index("item_id")["correct"].to_dict() == {"t-0": 1.0, "t-1": 0.0}
    assert frame["model"].unique().tolist() == ["m1"] and frame["task"].unique().tolist() == ["toy"]
    assert frame["option_loglik"].tolist() == [[-0.9, -1.0], [-0.3, -0.2]]
    (tmp_path / "results/tasks/toy.meta.json").unlink()
    with pytest.raises(ResponseReadError, match="toy.meta.json is missing"):
        readers.read_scores([path])
