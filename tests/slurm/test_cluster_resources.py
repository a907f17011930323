"""benchval.jobs.cluster_resources: resources from the model size, checked against hand-computed values."""

from types import SimpleNamespace

import pytest

from benchval.plumbing.config import section_defaults
from benchval.jobs.cluster_resources import (
    ClusterSettings,
    gpus_needed,
    model_resources,
    rule_resources,
    weights_gb,
)


def test_weights_and_gpu_count_by_hand():
    assert weights_gb(7, "bfloat16") == 14
    assert weights_gb(1, "float32") == 4
    # 72B bf16: 144 GB x 1.2 + logits of 4096(+256) positions x 256k vocab x 4 B (4.46 GB)
    # = 177.3 GB -> 3 x 80 GB, or 2 x 96 GB (the paper's two RTX PRO 6000).
    assert gpus_needed(72, "bfloat16", 80) == 3
    assert gpus_needed(72, "bfloat16", 96) == 2
    # 27B bf16: 64.8 + 4.46 GB -> one 80 GB GPU; 32B on 96 GB: 76.8 + 4.46 -> 1 (as in the paper).
    assert gpus_needed(27, "bfloat16", 80) == 1
    assert gpus_needed(32, "bfloat16", 96) == 1
    # A bigger batch needs more: 8B bf16 with 65536 tokens: 19.2 + 67.4 GB -> 2 x 80 GB.
    assert gpus_needed(8, "bfloat16", 80, batch_tokens=65536) == 2


def test_score_on_gpu_by_hand():
    # 8B bf16 on GPU: mem = 4096 + 16 GB * 1000; runtime = 30 + 2 * 8 min.
    assert model_resources(8, "score", True) == {"mem_mb": 20096, "runtime": 46, "gpu": 1}
    # Second attempt doubles memory and time, not GPUs.
    assert model_resources(8, "score", True, attempt=2) == {"mem_mb": 40192, "runtime": 92, "gpu": 1}
    assert model_resources(8, "generate", True)["runtime"] == 30 + 4 * 8


def test_cpu_jobs_use_the_measured_formulas_and_no_gpu():
    # benchval.scoring.resources: 2048 + 2 x 2000 (weights) + 4352 x 160000 x 4 / 1e6 (logits)
    # = 8833.3 MB -> rounded up to 256 MB: 8960; runtime 30 + 240 x 0.5.
    assert model_resources(0.5, "score", False, dtype="float32") == {"mem_mb": 8960, "runtime": 150, "gpu": 0}
    assert model_resources(0.5, "generate", False, dtype="float32")["runtime"] == 300
    # GGUF prepare (benchval.models.registry): 2560 + 6000 x 0.5 -> 5632; 10 + 20 x 0.5 min.
    assert model_resources(0.5, "prepare", True, source_type="gguf_wheels") == {"mem_mb": 5632, "runtime": 20, "gpu": 0}
    # HF prepare of 72B bf16: 4096 + 144 x 1.3 x 1000; 30 + 72 min; never a GPU.
    assert model_resources(72, "prepare", True, source_type="hf") == {"mem_mb": 191296, "runtime": 102, "gpu": 0}


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="unknown job kind 'train'"):
        model_resources(1, "train", True)
    with pytest.raises(ValueError, match="unknown dtype 'int3'"):
        model_resources(1, "score", True, dtype="int3")
    with pytest.raises(ValueError, match="size_b must be > 0"):
        model_resources(0, "score", True)
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['gpus'\]"):
        ClusterSettings.from_config({"gpus": 2})


def with_model_defaults(config: dict) -> dict:
    """``config`` with its model entries' schema defaults filled in, as the workflow fills them."""
    return {**config, "models": section_defaults("models", config["models"])}


def test_rule_resources_reads_the_config():
    config = {
        "models": {
            "big": {"family": "q", "size_b": 72, "dtype": "bfloat16", "device": "cuda", "source": {"type": "hf"}},
            "small": {"family": "s", "size_b": 0.135, "source": {"type": "gguf_wheels"}},  # fp32, cpu
        },
        "scoring": {"batch_tokens": 4096},
        "cluster": {"gpu_mem_gb": 96},
    }
    resources = rule_resources(with_model_defaults(config), "score")
    big, small = SimpleNamespace(model="big"), SimpleNamespace(model="small")
    assert resources["gpu"](big) == 2
    assert resources["gpu"](small) == 0
    assert resources["runtime"](big, attempt=1) == 30 + 2 * 72
    assert resources["mem_mb"](small) == model_resources(0.135, "score", False, dtype="float32")["mem_mb"]
    # Without a cluster section: 80 GB GPUs.
    assert (
        rule_resources(with_model_defaults({k: v for k, v in config.items() if k != "cluster"}), "score")["gpu"](big)
        == 3
    )
    with pytest.raises(KeyError, match="model 'nope' is not in config models"):
        resources["gpu"](SimpleNamespace(model="nope"))


def test_job_size_b_sets_the_resources_and_size_b_stays_metadata():
    # The rehearsal's tiny "72B" model: the analysis keeps size_b 72, its jobs ask for a tiny model's needs.
    entry = {"family": "q", "size_b": 72, "job_size_b": 0.001, "source": {"type": "local"}}
    config = with_model_defaults({"models": {"tiny72": entry}, "scoring": {"batch_tokens": 1024}})
    job = SimpleNamespace(model="tiny72")
    for kind in ("prepare", "score"):
        expected = model_resources(0.001, kind, False, dtype="float32", source_type="local", batch_tokens=1024)
        assert rule_resources(config, kind)["mem_mb"](job) == expected["mem_mb"]
        assert expected["mem_mb"] < model_resources(72, kind, False, dtype="float32", batch_tokens=1024)["mem_mb"]


def test_rule_resources_for_other_wildcards_and_endpoints():
    config = {
        "models": {"m": {"family": "f", "size_b": 7, "dtype": "bfloat16", "device": "cuda"}},
        "scoring": {"batch_tokens": 1024},
    }
    by_system = rule_resources(config, "generate", wildcard="system")
    assert by_system["gpu"](SimpleNamespace(system="m")) == 1
    assert by_system["runtime"](SimpleNamespace(system="m")) == 30 + 4 * 7
    # A remote endpoint (not a configured model) answers over the network: a light CPU job.
    assert by_system["gpu"](SimpleNamespace(system="gpt-endpoint")) == 0
    assert by_system["mem_mb"](SimpleNamespace(system="gpt-endpoint"), attempt=2) == 4000
    fixed = rule_resources(config, "generate", model="m")
    assert fixed["gpu"](SimpleNamespace()) == 1
    with pytest.raises(KeyError, match="model 'x' is not in config models"):
        rule_resources(config, "score", model="x")["gpu"](SimpleNamespace())
