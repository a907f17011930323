"""benchmarks/gpu_check.py's CPU smoke form: every check runs (or says why not), its JSON is what
benchval.cluster_planning.gpu_hours --measured reads, and cost refuses it because it was not measured on a GPU."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from benchval.cluster_planning.gpu_hours import MeasuredFileError, read_measured

REPO = Path(__file__).resolve().parents[2]


def gpu_check_module():
    spec = importlib.util.spec_from_file_location("gpu_check", REPO / "benchmarks" / "gpu_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpu_check_smoke_on_the_cpu(tmp_path, capsys):
    gpu_check = gpu_check_module()
    out = tmp_path / "gpu_check.json"
    assert gpu_check.main(["--device", "cpu", "--smoke", "--skip-lmeval", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "versions: python" in printed and "torch 2.13.0" in printed and "transformers" in printed
    data = json.loads(out.read_text())
    checks = [(row["check"], row["ok"]) for row in data["rows"]]
    assert checks.count(("exact", "yes")) == 4  # llama and gemma2 (sliding window), with and without BOS
    assert {c for c, _ in checks} == {"exact", "speed", "bf16", "split", "oom"}
    assert all(ok != "NO" for _, ok in checks)
    # items built from the mirror at the size it prints, never read from results/tasks/
    assert data["n_items"] == {"mc": 2, "partial": 2, "calibrated": 2, "minimal_pair": 2}
    speed = data["throughput"]
    assert speed["unique_tokens"] > 0 and speed["tokens_per_s"] > 0 and speed["achieved_tflops"] > 0
    assert speed["mfu"] is None and "no peak for a CPU" in speed["peak_source"]  # missing, with its reason
    assert data["startup_s"] > 0 and data["versions"]["torch"].startswith("2.13.0")
    with pytest.raises(MeasuredFileError, match="measured on 'cpu', not a GPU"):
        read_measured(out)


def test_matmul_flops_by_hand():
    """2 x non-embedding parameters per fed token + 2 x output layer per predicted position."""
    from benchval.scoring.scorer_factory import make_scorer
    from benchval.scoring.requests import build_requests
    from benchval.testing.architectures import real_items
    from benchval.testing.tiny import tiny_tokenizer

    gpu_check = gpu_check_module()
    tokenizer = tiny_tokenizer(False)
    model = gpu_check.realistic_model(gpu_check.llama_config(1, 128, 512), "cpu")
    requests = build_requests(real_items("hellaswag", 1), "mc")
    scorer = make_scorer("fast", model, tokenizer)
    scorer.score(requests)
    hidden, vocab = 128, 512
    attention = 4 * hidden * hidden  # q, k, v, o: one head of 128, one key-value head
    mlp = 3 * hidden * 512  # gate, up, down; intermediate 3.5 x 128 rounded to 256s, at least 256: 512
    body = attention + mlp + 3 * hidden  # + the layer's two norms and the final norm
    predicted = sum(len(e.continuation_ids) for e in scorer.encoder.encode_frame(requests))
    expected = 2 * body * scorer.stats.real_tokens + 2 * vocab * hidden * predicted
    assert gpu_check.matmul_flops(model, scorer, requests) == pytest.approx(expected)
