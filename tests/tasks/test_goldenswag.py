"""GoldenSwag comes from the Hugging Face Hub only: offline it is a recorded skip, not a crash."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from benchval.tasks import commonsense
from benchval.tasks.base import AdapterInput, FilterReport, TaskUnavailable, get_adapter
from benchval.tasks.items import read_items, read_task_meta
from benchval.tasks.prepare import prepare_task

ROW = {
    "ind": 4,
    "activity_label": "Baking cookies",
    "ctx_a": "A woman mixes dough in a bowl.",
    "ctx_b": "she",
    "endings": ["puts the tray in the oven.", "eats the bowl.", "paints the dough [title] blue.", "runs away."],
    "label": "0",
    "split": "val",
    "split_type": "indomain",
    "source_id": "activitynet~v_x",
}


def run(options=None):
    return get_adapter("goldenswag")(AdapterInput("goldenswag", {}, options or {}, 1, "mc"), FilterReport("goldenswag"))


def test_unreachable_hub_raises_task_unavailable(monkeypatch):
    def offline(hub_id, split):
        raise ConnectionError(f"Couldn't reach '{hub_id}' on the Hub (LocalEntryNotFoundError)")

    monkeypatch.setattr(commonsense, "load_hub_rows", offline)
    with pytest.raises(TaskUnavailable) as error:
        run()
    assert "needs the Hugging Face Hub (dataset PleIAs/GoldenSwag" in str(error.value)


def test_missing_datasets_library_raises_task_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "datasets", None)  # makes `import datasets` fail
    with pytest.raises(TaskUnavailable, match="needs the Python package 'datasets'"):
        run()


def test_rows_become_hellaswag_style_items(monkeypatch):
    monkeypatch.setattr(commonsense, "load_hub_rows", lambda hub_id, split: [ROW])
    (item,) = run()
    assert item.id == "goldenswag-validation-00001"
    assert item.context == "Baking cookies: A woman mixes dough in a bowl. She"
    assert item.options == [" puts the tray in the oven.", " eats the bowl.", " paints the dough. blue.", " runs away."]
    assert item.label == 0


def test_prepare_records_skip_when_offline(monkeypatch, tmp_path, catalogue):
    monkeypatch.setattr(
        commonsense, "load_hub_rows", lambda hub_id, split: (_ for _ in ()).throw(OSError("no network"))
    )
    out = tmp_path / "goldenswag.parquet"
    meta = prepare_task("goldenswag", catalogue["tasks"]["goldenswag"], {}, {"n_items": 24}, 1, output=out)
    assert meta["unavailable"].startswith("needs the Hugging Face Hub") and "no network" in meta["unavailable"]
    assert read_task_meta(out)["unavailable"] == meta["unavailable"] and len(read_items(out)) == 0


def test_real_datasets_call_in_offline_mode_is_a_skip(tmp_path):
    """The real `datasets.load_dataset` path (HF_HUB_OFFLINE=1 keeps it fast and network-free)."""
    import datasets  # noqa: F401  (a pinned dependency: if it is missing this test fails, it does not skip)

    script = textwrap.dedent("""
        from benchval.tasks.base import AdapterInput, FilterReport, TaskUnavailable, get_adapter
        try:
            get_adapter("goldenswag")(AdapterInput("goldenswag", {}, {}, 1, "mc"), FilterReport("goldenswag"))
        except TaskUnavailable as error:
            print("UNAVAILABLE:", error.reason)
    """)
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert "UNAVAILABLE: needs the Hugging Face Hub (dataset PleIAs/GoldenSwag" in result.stdout, result.stderr[-2000:]
