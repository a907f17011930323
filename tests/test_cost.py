"""benchval.cost: GPU-hours from unique tokens and the documented formula, checked by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from benchval.cost import Throughput, study_cost


def test_gpu_hours_by_hand(tmp_path):
    # mc: contexts "abcdefgh" (2 tokens at 4 chars a token) and options " xyz"(1), " uvwxyzab"(2)
    pd.DataFrame(
        [{"id": "i1", "context": "abcdefgh", "options": [" xyz", " uvwxyzab"], "label": 0, "target": None}]
    ).to_parquet(tmp_path / "t_mc.parquet")
    # calibrated: the same options plus one prior each after "N/A" (1 token)
    pd.DataFrame(
        [{"id": "j1", "context": "abcd", "options": [" xyz", " uvwxyzab"], "label": 1, "target": None}]
    ).to_parquet(tmp_path / "t_cal.parquet")
    config = {
        "tasks": {"t_mc": {"scoring_mode": "mc"}, "t_cal": {"scoring_mode": "calibrated"}},
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
        "studies": {"default": {"source": "scored", "models": ["small", "large"], "tasks": ["t_mc", "t_cal"]}},
    }
    throughput = Throughput(peak_tflops=100.0, mfu=0.5, load_gbps=2.0, job_start_s=30.0)
    table = study_cost(config, throughput=throughput, prepared_dir=tmp_path).set_index("model")
    # unique tokens: distinct contexts once + (continuation tokens - 1) per request (the last is not fed)
    # t_mc: 2 + (0 + 1) = 3; t_cal: contexts "abcd"(1), "N/A"(1) + (0 + 1) x 2 = 4
    assert table.attrs["tokens_per_task"] == {"t_mc": 3, "t_cal": 4}
    assert (table["tokens"] == 7).all()
    compute_small = 2 * 1e9 * 7 / (100e12 * 0.5)
    small = (compute_small + 2 * 2.0 / 2.0 + 2 * 30.0) * 1 / 3600  # 2 jobs, 2 GB weights each load
    assert table.loc["small", "gpu_hours"] == pytest.approx(small)
    # 140 GB of bf16 weights x 1.2 + logits on 80 GB GPUs (the default): 3 GPUs, one job
    assert table.loc["large", "jobs"] == 1 and table.loc["large", "gpus"] == 3
    compute_large = 2 * 70e9 * 7 / (100e12 * 0.5)
    assert table.loc["large", "gpu_hours"] == pytest.approx((compute_large + 140.0 / 2.0 + 30.0) * 3 / 3600)
