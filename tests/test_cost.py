"""benchval.cluster_planning.gpu_hours: GPU-hours from unique tokens and the documented formula, checked by hand; every
input printed with its source; the docs' cost output regenerated (docs/cluster.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from benchval.cluster_planning import gpu_hours as cost
from benchval.plumbing.config import merged_config
from benchval.testing.prepared_models import prepared_model
from benchval.cluster_planning.gpu_hours import (
    MeasuredFileError,
    Throughput,
    read_measured,
    study_cost,
    task_items,
    unique_tokens,
)

REPO = Path(__file__).resolve().parents[1]
PAPER = REPO / "config" / "paper.yaml"
# the command whose output docs/cluster.md shows (between the markers below)
DOCS_COMMAND = ["--configfile", str(PAPER), "--gpu", "rtx-pro-6000", "--tokenizer"]
DOCS_TOKENIZER = "smollm2-135m"  # the model the suite prepares (benchval.testing.prepared_models)
BLOCK = re.compile(r"<!-- cost-output:begin -->\n```\n(.*?)```\n<!-- cost-output:end -->", re.S)


def by_hand_items(task: str, config: dict):
    # mc: contexts "abcdefgh" (2 tokens at 4 chars a token) and options " xyz"(1), " uvwxyzab"(2)
    # calibrated: the same options plus one prior each after "N/A" (1 token)
    tables = {
        "t_mc": [{"id": "i1", "context": "abcdefgh", "options": [" xyz", " uvwxyzab"], "label": 0, "target": None}],
        "t_cal": [{"id": "j1", "context": "abcd", "options": [" xyz", " uvwxyzab"], "label": 1, "target": None}],
    }
    if task == "t_hub":
        return pd.DataFrame(), "needs the Hugging Face Hub"
    return pd.DataFrame(tables[task]), None


def test_gpu_hours_by_hand():
    config = {
        "tasks": {t: {"scoring_mode": m} for t, m in [("t_mc", "mc"), ("t_cal", "calibrated"), ("t_hub", "mc")]},
        "scoring": {"batch_tokens": 1024, "jobs": "per_task"},
        "models": {
            "small": {"family": "f", "size_b": 1.0, "dtype": "bfloat16", "device": "cuda"},
            "large": {
                "family": "f",
                "size_b": 70.0,
                "dtype": "bfloat16",
                "device": "cuda",
                "scoring_jobs": "per_model",
            },
        },
        "studies": {"default": {"source": "scored", "models": ["small", "large"], "tasks": ["t_mc", "t_cal", "t_hub"]}},
    }
    throughput = Throughput(peak_tflops=100.0, mfu=0.5, load_gbps=2.0, job_start_s=30.0)
    table = study_cost(config, throughput=throughput, items=by_hand_items).set_index("model")
    # unique tokens: distinct contexts once + (continuation tokens - 1) per request (the last is not fed)
    # t_mc: 2 + (0 + 1) = 3; t_cal: contexts "abcd"(1), "N/A"(1) + (0 + 1) x 2 = 4; t_hub: missing, not 0
    assert table.attrs["tokens_per_task"] == {"t_mc": 3, "t_cal": 4}
    assert table.attrs["missing"] == {"t_hub": "needs the Hugging Face Hub"}
    assert (table["tokens"] == 7).all()
    compute_small = 2 * 1e9 * 7 / (100e12 * 0.5)
    small = (compute_small + 3 * 2.0 / 2.0 + 3 * 30.0) * 1 / 3600  # 3 jobs, 2 GB weights each load
    assert table.loc["small", "gpu_hours"] == pytest.approx(small)
    # 140 GB of bf16 weights x 1.2 + logits on 80 GB GPUs (the default): 3 GPUs, one job
    assert table.loc["large", "jobs"] == 1 and table.loc["large", "gpus"] == 3
    compute_large = 2 * 70e9 * 7 / (100e12 * 0.5)
    assert table.loc["large", "gpu_hours"] == pytest.approx((compute_large + 140.0 / 2.0 + 30.0) * 3 / 3600)
    # on the paper's 96 GB cards: 2 GPUs
    assert study_cost(config, throughput=throughput, items=by_hand_items, gpu_mem_gb=96).iloc[1]["gpus"] == 2


def test_tokens_come_from_the_config_sampling_not_from_prepared_items(tmp_path, monkeypatch):
    """A sampled results/tasks/ (24 items after a default run) must not stand in for the config's items."""
    config = merged_config()
    config["sample"] = {"n_items": None, "per_task": {}}
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results" / "tasks").mkdir(parents=True)
    full, reason = task_items("cei", config)
    assert reason is None and len(full) > 24
    full.head(3).to_parquet(tmp_path / "results" / "tasks" / "cei.parquet")  # what a sampled run left
    count = cost.counter(None)
    assert unique_tokens(task_items("cei", config)[0], "calibrated", count) == unique_tokens(full, "calibrated", count)
    config["sample"] = {"n_items": 10, "per_task": {}}
    sampled, _ = task_items("cei", config)
    assert len(sampled) == 10 and set(sampled["id"]) < set(full["id"])


def gpu_json(tmp_path, **changes) -> Path:
    data = {
        "device": "cuda",
        "device_name": "NVIDIA H100 80GB HBM3",
        "startup_s": 12.5,
        "throughput": {"peak_tflops": 989.0, "mfu": 0.31, "achieved_tflops": 306.6, "model": "Llama 16 x 4096"},
    }
    for key, value in changes.items():
        if key in data["throughput"]:
            data["throughput"][key] = value
        else:
            data[key] = value
    path = tmp_path / "gpu_check.json"
    path.write_text(json.dumps(data))
    return path


def test_a_measured_throughput_is_read_and_a_cpu_one_refused(tmp_path):
    measured = read_measured(gpu_json(tmp_path))
    assert measured["mfu"][0] == 0.31 and measured["peak_tflops"][0] == 989.0 and measured["job_start_s"][0] == 12.5
    assert "measured:" in measured["mfu"][1] and "H100" in measured["mfu"][1]
    with pytest.raises(MeasuredFileError, match="measured on 'cpu', not a GPU"):
        read_measured(gpu_json(tmp_path, device="cpu"))
    with pytest.raises(MeasuredFileError, match=r"throughput.mfu is missing or not > 0 \(None\)"):
        read_measured(gpu_json(tmp_path, mfu=None))
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(MeasuredFileError, match="bad.json: cannot read"):
        read_measured(tmp_path / "bad.json")


def test_every_input_is_printed_with_its_source(tmp_path, capsys):
    small = tmp_path / "small.yaml"
    small.write_text("studies:\n  default:\n    tasks: [cei, indirect_requests]\n")
    cost.main(["--configfile", str(PAPER), str(small), "--measured", str(gpu_json(tmp_path)), "--load-gbps", "2"])
    out = capsys.readouterr().out
    assert "tokens: built from the mirror by the tasks' adapters with the config's sampling" in out
    assert re.search(r"peak 989 TFLOPS: measured: .*gpu_check.json \(NVIDIA H100", out)
    assert re.search(r"MFU 0.31: measured: ", out)
    assert "weights load at 2 GB/s: stated (--load-gbps)" in out
    assert "start-up 12.5 s a job: measured: " in out
    assert "GPUs of 96 GB: config cluster.gpu_mem_gb" in out  # paper.yaml states the paper's cards
    assert re.search(r"paper: \$65 for its 6 models above 12B .* \$65 pays for them at \$[\d.]+ per GPU-hour", out)
    cost.main(["--configfile", str(PAPER), str(small), "--gpu", "h100-sxm", "--price-per-gpu-hour", "2"])
    out = capsys.readouterr().out
    assert "peak 989 TFLOPS: NVIDIA H100 SXM" in out and "MFU 0.2: assumed (no measurement given" in out
    assert "GPUs of 80 GB: preset h100-sxm" in out and re.search(r"x \$2 per GPU-hour \(stated\) = \$\d+", out)


def docs_output(monkeypatch, capsys) -> str:
    from benchval.tasks import commonsense

    def offline(hub_id, split):
        raise OSError("the test runs offline")

    monkeypatch.setattr(commonsense, "load_hub_rows", offline)  # the same on a machine with the Hub
    cost.main([*DOCS_COMMAND, str(prepared_model(DOCS_TOKENIZER))])
    return capsys.readouterr().out.replace(str(REPO) + "/", "")


@pytest.mark.slow
def test_docs_cost_output_is_current(monkeypatch, capsys):
    """docs/cluster.md shows the output of its cost command for config/paper.yaml, regenerated here."""
    generated = docs_output(monkeypatch, capsys)
    docs = (REPO / "docs" / "cluster.md").read_text()
    assert f"--gpu rtx-pro-6000 --tokenizer resources/models/{DOCS_TOKENIZER}\n" in docs  # the command shown
    shown = BLOCK.search(docs)
    assert shown, "docs/cluster.md has no cost-output block"
    assert shown.group(1) == generated, "docs/cluster.md's cost output is stale; it should read:\n" + generated
