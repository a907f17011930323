"""The shared near-duplicate rule, the common helpers, the catalogue, and the task-size table."""

from __future__ import annotations

import json
import random

import pandas as pd
import pytest
import yaml

from benchval.plumbing.raw_files import dataset_files, sha256_of
from benchval.plumbing.folders import REPO_ROOT
from benchval.tasks import prepare
from benchval.tasks.base import known_adapters
from benchval.tasks.downstream.common import answer_statements, shuffle_options
from benchval.tasks.rawfiles import read_csv
from benchval.tasks.downstream.near_duplicates import jaccard, near_duplicate_of
from benchval.tasks.registry import folder_catalogue
from benchval.tasks.sizes import deviates, task_sizes_table


def brute_force(texts, threshold, seed):
    """The rule written out plainly: visit in seeded order, drop what resembles a kept text."""
    order = list(range(len(texts)))
    random.Random(seed).shuffle(order)
    kept, result = [], [None] * len(texts)
    for index in order:
        match = next((k for k in kept if jaccard(texts[index], texts[k]) >= threshold - 1e-9), None)
        if match is None:
            kept.append(index)
        result[index] = match
    return result


def test_jaccard_hand_computed():
    assert jaccard("The cat sat.", "the cat ran") == pytest.approx(2 / 4)
    assert jaccard("a b c", "a b c") == 1.0 and jaccard("", "") == 1.0 and jaccard("a", "b") == 0.0


def test_near_duplicates_matches_brute_force():
    rng = random.Random(3)
    vocabulary = [f"w{i}" for i in range(12)]
    texts = [" ".join(rng.sample(vocabulary, rng.randint(1, 6))) for _ in range(300)]
    for threshold in (0.3, 0.5, 0.8, 1.0):
        assert near_duplicate_of(texts, threshold, seed=7) == brute_force(texts, threshold, seed=7)


def test_near_duplicates_hand_made_and_seeded():
    texts = ["Kim found Lee today.", "Kim found Lee yesterday.", "Pat bakes bread."]
    marks = near_duplicate_of(texts, 0.5, seed=1)  # the first two share 3 of 5 words (0.6)
    assert marks[2] is None and sorted(m is None for m in marks[:2]) == [False, True]
    assert near_duplicate_of(texts, 0.7, seed=1) == [None, None, None]
    survivors = {tuple(m is None for m in near_duplicate_of(texts, 0.5, seed=s)) for s in range(20)}
    assert survivors == {(True, False, True), (False, True, True)}  # which twin survives depends on the seed
    with pytest.raises(ValueError, match="threshold"):
        near_duplicate_of(texts, 0, seed=1)


def test_shuffle_options_and_answer_statements():
    options, label = shuffle_options(["a", "b", "c", "d"], 0, 5, "x-1")
    assert options[label] == "a" and sorted(options) == ["a", "b", "c", "d"]
    assert shuffle_options(["a", "b", "c", "d"], 0, 5, "x-1") == (options, label)
    statements = answer_statements(["joy", "fear"], " I feel {label}.", {"joy": "happy"})
    assert statements == [" I feel happy.", " I feel fear."]
    with pytest.raises(ValueError, match="not distinct"):
        answer_statements(["a", "b"], " x {label}", {"a": "same", "b": "same"})
    with pytest.raises(ValueError, match="not in the label set"):
        answer_statements(["a"], " {label}", {"z": "y"})


def test_read_csv_line_numbers_with_multiline_fields(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text('a,b\n"x\ny",1\nz,2\n', encoding="utf-8")
    assert [(row.line, row.data) for row in read_csv(path)] == [(2, {"a": "x\ny", "b": "1"}), (4, {"a": "z", "b": "2"})]
    path.write_text("a,b\n1,2,3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"m.csv, line 2: row has 3 fields, header has 2"):
        list(read_csv(path))


# ---- catalogue --------------------------------------------------------------------------------


def test_catalogue_matches_schemas_and_adapters(catalogue):
    import jsonschema

    for section in ("tasks", "datasets"):
        schema_path = REPO_ROOT / "workflow" / "schemas" / f"{section}.schema.yaml"
        jsonschema.validate(catalogue[section], yaml.safe_load(schema_path.read_text()))
    for task, spec in catalogue["tasks"].items():
        assert spec["adapter"] in known_adapters(), task
        assert spec["dataset"] in catalogue["datasets"], task
        assert (spec["role"] == "control") == (spec["axes"] == []), task
        assert spec["metrics"] == (["accuracy"] if task == "timedial" else ["accuracy", "macro_f1"]), task
        if spec["exclude_ids"]:
            assert (REPO_ROOT / spec["exclude_ids"]).is_file(), task
    axes = {task: spec["axes"] for task, spec in catalogue["tasks"].items() if spec["role"] == "downstream"}
    assert axes == {
        "cei": ["social"],
        "sarc7": ["social"],
        "false_beliefs": ["social"],
        "indirect_requests": ["pragmatic"],
        "presupposition": ["pragmatic"],
        "implicature": ["pragmatic"],
        "timedial": ["event"],
        "trip": ["event"],
    }
    calibrated = {task for task, spec in catalogue["tasks"].items() if spec["scoring_mode"] == "calibrated"}
    assert calibrated == {"cei", "sarc7", "presupposition", "implicature"}


def test_catalogue_checksums_match_the_mirror(catalogue, mirror):
    """Every declared file is in the mirror, with the declared checksum (a missing file fails)."""
    checked = 0
    for name in catalogue["datasets"]:
        for key, data_file in dataset_files(catalogue["datasets"], name).items():
            path = mirror / data_file.path
            assert path.is_file(), f"datasets.{name}.files.{key}: {path} is not in the mirror"
            assert sha256_of(path) == data_file.sha256, f"{name}.{key}"
            checked += 1
    assert checked > 0


# ---- task sizes -------------------------------------------------------------------------------


def _task_files(folder, task, role, axes, n_raw, steps, n_final, unavailable=None):
    meta = {"task": task, "role": role, "axes": axes, "n_raw": n_raw, "n_final": n_final, "unavailable": unavailable}
    (folder / f"{task}.meta.json").write_text(json.dumps(meta))
    (folder / f"{task}.filters.json").write_text(json.dumps({"task": task, "steps": steps, "notes": []}))
    return folder / f"{task}.meta.json"


def _step(name, before, after, removed=None):
    return {"filter": name, "before": before, "after": after, "removed": removed or {}}


def test_task_sizes_table(tmp_path, caplog):
    cei_steps = [
        _step("read", 300, 300),
        _step("ambiguous_labels", 300, 39, {"agreement<1": 261}),
        _step("subsample", 39, 24, {"sampled 24 of 39 (seed 1)": 15}),
    ]
    cei = _task_files(tmp_path, "cei", "downstream", ["social"], 300, cei_steps, 24)
    blimp = _task_files(tmp_path, "blimp", "control", [], 4000, [_step("read", 4000, 4000)], 4000)
    gone = _task_files(tmp_path, "goldenswag", "cs_reworked", ["event"], 0, [], 0, unavailable="needs the Hub")
    trip_steps = [_step("read", 161, 161), _step("near_duplicates", 161, 109, {"near_duplicate": 52})]
    trip = _task_files(tmp_path, "trip", "downstream", ["event"], 161, trip_steps, 109)
    sarc_steps = [_step("read", 690, 690), _step("insufficient_context", 690, 240, {"context_turns<2": 450})]
    sarc = _task_files(tmp_path, "sarc7", "downstream", ["social"], 690, sarc_steps, 240)
    config = {
        "tasks": {
            "cei": {"paper_n": 31},
            "blimp": {"paper_n": None},
            "goldenswag": {"paper_n": 1500},
            "trip": {"paper_n": 100},
            "sarc7": {"paper_n": 100},
        },
        "paper_n_deviations": {"cei": "Rule gives more.", "trip": "Not shown: within 10 %."},
    }
    table = task_sizes_table([cei, blimp, gone, trip, sarc], config)
    assert list(table.columns) == [
        "task",
        "role",
        "axes",
        "n_raw",
        "n_after_filters",
        "n_final",
        "paper_n",
        "deviation",
        "notes",
    ]
    assert table.to_dict("records")[0] == {
        "task": "cei",
        "role": "downstream",
        "axes": "social",
        "n_raw": 300,
        "n_after_filters": 39,
        "n_final": 24,
        "paper_n": 31,
        "deviation": "Rule gives more.",
        "notes": "ambiguous_labels: agreement<1 -261",
    }
    assert table.loc[1, "n_after_filters"] == 4000 and pd.isna(table.loc[1, "paper_n"])
    assert table.loc[1, "deviation"] == ""  # no paper n to compare with
    assert table.loc[2, "notes"] == "unavailable: needs the Hub"
    assert table.loc[2, "deviation"] == "not built here: needs the Hub"
    assert table.loc[3, "deviation"] == ""  # 109 vs 100: within 10 %, no reason shown
    assert table.loc[4, "deviation"] == "no reason recorded (paper_n_deviations.sarc7) for n 240 vs the paper's 100"
    assert "task sarc7: n=240 differs" in caplog.text
    explicit = task_sizes_table([sarc], config, {"sarc7": "Rule gives more."})
    assert explicit.loc[0, "deviation"] == "Rule gives more."
    with pytest.raises(KeyError, match="missing key 'n_raw'"):
        (tmp_path / "bad.meta.json").write_text(json.dumps({"task": "bad", "role": "control", "n_final": 1}))
        task_sizes_table([tmp_path / "bad.meta.json"], {})


def test_deviation_limit_hand_computed():
    assert not deviates(110, 100) and deviates(111, 100) and deviates(89, 100) and not deviates(90, 100)
    assert not deviates(5, None)


def test_every_deviating_task_has_a_reason(catalogue, mirror):
    """Every catalogue task whose n (after its filters, on the mirror) differs from the paper's n by more
    than 10 % has a sentence in config/catalogue/paper_n_deviations.yaml, and no task has a stale one."""
    from benchval.tasks.base import FilterReport
    from benchval.tasks.prepare import build_items

    merged = folder_catalogue()  # every task folder
    reasons = yaml.safe_load((REPO_ROOT / "config" / "catalogue" / "paper_n_deviations.yaml").read_text())
    reasons = reasons["paper_n_deviations"]
    deviating = set()
    for task, spec in merged["tasks"].items():
        if spec.get("paper_n") is None or spec["dataset"] is None:
            continue  # controls; GoldenSwag (the Hub) is reported as not built
        files = {key: mirror / f.path for key, f in dataset_files(merged["datasets"], spec["dataset"]).items()}
        if not all(path.is_file() for path in files.values()):
            pytest.skip(f"mirror lacks files of {task}")
        n = len(build_items(task, spec, files, 20261130, FilterReport(task)))
        if deviates(n, spec["paper_n"]):
            deviating.add(task)
    assert deviating <= set(reasons), sorted(deviating - set(reasons))
    assert set(reasons) <= set(merged["tasks"])


def test_every_task_prepares_through_the_items_writer(tmp_path, catalogue, mirror):
    """All catalogue tasks through benchval.tasks.prepare (contract checks, subsample, reports)."""
    metas = []
    for task, spec in catalogue["tasks"].items():
        if task in ("presupposition", "implicature"):
            spec = {**spec, "options": {**spec["options"], "files": spec["options"]["files"][:1]}}  # keep it light
        files = {key: mirror / f.path for key, f in dataset_files(catalogue["datasets"], spec["dataset"]).items()}
        meta = prepare.prepare_task(
            task,
            spec,
            files,
            {"n_items": 8},
            20261130,
            exclude_ids_file=spec.get("exclude_ids") and REPO_ROOT / spec["exclude_ids"],
            output=tmp_path / f"{task}.parquet",
        )
        assert meta["n_final"] == 8, task
        metas.append(tmp_path / f"{task}.meta.json")
    table = task_sizes_table(metas, catalogue)
    assert (table["n_final"] == 8).all() and (table["n_after_filters"] >= 8).all()
    assert table.set_index("task").loc["false_beliefs", "n_after_filters"] == 192
