"""benchmarks/compare_runs.py on two tiny run directories: what it compares, what it leaves out."""

from __future__ import annotations

import importlib.util
import io
import json
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from benchval.plumbing.folders import REPO_ROOT

SCRIPT = REPO_ROOT / "benchmarks" / "compare_runs.py"


@pytest.fixture(scope="module")
def compare_runs():
    spec = importlib.util.spec_from_file_location("compare_runs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def write_run(root, seconds=1.5, accuracy=0.5, figure=b"PNG-1", log="started 08:00"):
    (root / "results" / "tables").mkdir(parents=True)
    (root / "results" / "figures").mkdir(parents=True)
    (root / "resources" / "models" / "m").mkdir(parents=True)
    (root / "logs" / "benchmarks").mkdir(parents=True)
    pd.DataFrame({"model": ["a", "b"], "accuracy": [accuracy, 0.25]}).to_csv(root / "results/tables/t.csv", index=False)
    pd.DataFrame({"id": ["x"], "options": [[" yes", " no"]], "seconds": [seconds]}).to_parquet(
        root / "results/tables/t.parquet"
    )
    (root / "resources/kg").mkdir(parents=True)
    (root / "resources/kg/store.stats.json").write_text(json.dumps({"quads": 3, "seconds": seconds}))
    (root / "resources/models/m/model.safetensors").write_bytes(figure * 3)  # weights: never read
    (root / "results/figures/f.png").write_bytes(figure)
    (root / "logs/benchmarks/rule.tsv").write_text(log)
    return root


def run(compare_runs, before, after) -> tuple[int, str]:
    out = io.StringIO()
    return compare_runs.compare_runs(before, after, out), out.getvalue()


def test_identical_runs_apart_from_volatile_fields_figures_weights_and_logs(tmp_path, compare_runs, monkeypatch):
    monkeypatch.setattr(
        compare_runs,
        "VOLATILE",
        compare_runs.VOLATILE
        + (compare_runs.Volatile("results/tables/t.parquet", "column", "seconds", "generation time"),),
    )
    before = write_run(tmp_path / "before")
    after = write_run(tmp_path / "after", seconds=9.0, figure=b"PNG-2", log="started 09:00")
    count, text = run(compare_runs, before, after)
    assert count == 0, text
    assert "results/tables/t.csv: identical" in text and "results/tables/t.parquet: identical" in text
    assert "resources/kg/store.stats.json: identical" in text
    assert "results/figures/f.png: present in both (figure: bytes not compared)" in text
    assert "safetensors" not in text and "logs/" not in text


def test_differences_are_named(tmp_path, compare_runs):
    before = write_run(tmp_path / "before")
    after = write_run(tmp_path / "after", seconds=9.0, accuracy=0.75)
    (after / "results/tables/new.csv").write_text("a\n1\n")
    count, text = run(compare_runs, before, after)
    assert count == 3, text  # t.csv, t.parquet (its seconds column is not declared volatile here), new.csv
    assert "results/tables/t.csv: different\n    row 0, column 'accuracy': 0.5 -> 0.75" in text
    assert "results/tables/t.parquet: different\n    row 0, column 'seconds': 1.5 -> 9.0" in text
    assert "resources/kg/store.stats.json: identical" in text  # its seconds are declared volatile
    assert "results/tables/new.csv: only in AFTER" in text


def test_json_key_paths_and_wildcards(compare_runs):
    before = {"a": {"x": 1, "y": [1, 2]}, "files": {"d": {"path": "../one", "sha256": "s"}}}
    after = {"a": {"x": 2, "y": [1, 2]}, "z": 0, "files": {"d": {"path": "../../two", "sha256": "s"}}}
    found = list(compare_runs.json_differences(before, after))
    assert found == ["a.x: 1 -> 2", "files.d.path: '../one' -> '../../two'", "z: only after"]
    exempt = [compare_runs.without(doc, "files.*.path") for doc in (before, after)]
    assert list(compare_runs.json_differences(*exempt)) == ["a.x: 1 -> 2", "z: only after"]


def test_command_line_exit_status(tmp_path):
    before = write_run(tmp_path / "before")
    same = tmp_path / "same"
    shutil.copytree(before, same)
    assert subprocess.run([sys.executable, str(SCRIPT), str(before), str(same)], capture_output=True).returncode == 0
    (same / "results/tables/t.csv").write_text("model,accuracy\na,0.5\n")
    result = subprocess.run([sys.executable, str(SCRIPT), str(before), str(same)], capture_output=True, text=True)
    assert result.returncode == 1 and "shape (2, 2) -> (1, 2)" in result.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    result = subprocess.run([sys.executable, str(SCRIPT), str(before), str(empty)], capture_output=True, text=True)
    assert result.returncode == 2 and "not a run's working directory" in result.stderr


def write_verdicts(root, raw, judged_yes=True, name="smollm2-135m.parquet"):
    folder = root / "results" / "commonwhy_eval" / "judge_check"
    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"pair_id": ["p1"], "judged_yes": [judged_yes], "raw": [raw]}).to_parquet(folder / name)
    return root


def test_judge_margins_are_compared_within_their_tolerance_only(tmp_path, compare_runs):
    before = write_verdicts(tmp_path / "before", "+0.178|-0.012")
    assert compare_runs.tolerances("results/commonwhy_eval/judge_check/smollm2-135m.parquet") == {"raw": 0.0015}
    near = write_verdicts(tmp_path / "near", "+0.179|-0.012")  # the third decimal moved by one: within
    count, text = run(compare_runs, before, near)
    assert count == 0, text
    for name, raw, judged_yes in (
        ("far", "+0.181|-0.012", True),  # 0.003 apart: beyond the tolerance
        ("fewer", "+0.178", True),  # one margin fewer
        ("text", "+0.178|yes", True),  # not a number
        ("nan", "+0.178|nan", True),  # a margin lost
        ("verdict", "+0.178|-0.012", False),  # the verdict itself: exact
    ):
        count, text = run(compare_runs, before, write_verdicts(tmp_path / name, raw, judged_yes))
        assert count == 1 and "different" in text, (name, text)
    # the same small move in a column, or in a file, without a declared tolerance differs
    assert compare_runs.tolerances("results/commonwhy_eval/judged/smollm2-135m.parquet") == {}
    table = pd.DataFrame({"margin": ["+0.178"]})
    assert compare_runs.table_differences(table, pd.DataFrame({"margin": ["+0.179"]}), [], {}) != []
