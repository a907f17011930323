"""Device maps planned before loading (benchval.models.placement.plan_device_map), on meta-device
models of Qwen 2.5's 7B, 32B and 72B shapes (no weights), for 1, 2 and 4 GPUs of 80 and 96 GB."""

from __future__ import annotations

import pytest
import torch
from accelerate.utils import compute_module_sizes
from transformers import Qwen2Config

from benchval.jobs.cluster_resources import gpus_needed
from benchval.models import loader as loader_module
from benchval.models.placement import ModelDoesNotFit, Placement, meta_model, plan_device_map, planned

GB = 1e9
BATCH_TOKENS = 16384  # config/paper.yaml
# Qwen 2.5's published shapes (config.json of Qwen2.5-7B/32B/72B-Instruct), vocabulary 152,064.
SHAPES = {
    "7b": dict(hidden_size=3584, intermediate_size=18944, num_hidden_layers=28, num_attention_heads=28, kv=4),
    "32b": dict(hidden_size=5120, intermediate_size=27648, num_hidden_layers=64, num_attention_heads=40, kv=8),
    "72b": dict(hidden_size=8192, intermediate_size=29568, num_hidden_layers=80, num_attention_heads=64, kv=8),
}
# (shape, card GB, visible GPUs) -> GPUs the plan uses; None: does not fit, fails before loading.
# A GPU takes 90% of its card in weights; the output layer's GPU also keeps the float32 logits of
# one 16,384-token batch (10.1 GB at this vocabulary) free.
EXPECTED = {
    ("7b", 80, 1): 1,
    ("7b", 80, 2): 1,
    ("7b", 80, 4): 1,
    ("7b", 96, 1): 1,
    ("7b", 96, 2): 1,
    ("7b", 96, 4): 1,
    ("32b", 80, 1): None,
    ("32b", 80, 2): 2,
    ("32b", 80, 4): 2,
    ("32b", 96, 1): 1,
    ("32b", 96, 2): 1,
    ("32b", 96, 4): 1,
    ("72b", 80, 1): None,
    ("72b", 80, 2): None,
    ("72b", 80, 4): 3,
    ("72b", 96, 1): None,
    ("72b", 96, 2): 2,
    ("72b", 96, 4): 2,
}
ENTRY = {"device": "cuda", "dtype": "bfloat16"}


def shape_config(shape: str) -> Qwen2Config:
    spec = dict(SHAPES[shape])
    return Qwen2Config(vocab_size=152_064, tie_word_embeddings=False, num_key_value_heads=spec.pop("kv"), **spec)


@pytest.fixture(scope="module")
def meta_models():
    return {shape: meta_model(shape_config(shape), "bfloat16") for shape in SHAPES}


@pytest.fixture
def fake_cuda(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)


def bytes_per_device(model, device_map: dict) -> dict:
    sizes = compute_module_sizes(model)
    out: dict = {}
    for module, device in device_map.items():
        out[device] = out.get(device, 0) + sizes[module]
    return out


@pytest.mark.parametrize(("shape", "card", "n_gpus"), list(EXPECTED))
def test_device_maps_for_7b_32b_72b_on_80_and_96_gb_cards(fake_cuda, meta_models, shape, card, n_gpus):
    model, config = meta_models[shape], shape_config(shape)
    placement = Placement.from_model_entry(ENTRY, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[card] * n_gpus)
    assert placement.max_memory == {**{i: round(0.9 * card * GB) for i in range(n_gpus)}, "cpu": 0}
    expected = EXPECTED[shape, card, n_gpus]
    if expected is None:
        with pytest.raises(ModelDoesNotFit, match=rf"{shape}: \d+\.\d GB of bfloat16 weights do not fit") as error:
            plan_device_map(config, placement, shape, meta=model)
        assert f"{n_gpus} GPU(s) taking at most" in str(error.value) and "Nothing was loaded" in str(error.value)
        return
    device_map = plan_device_map(config, placement, shape, meta=model)
    used = bytes_per_device(model, device_map)
    assert set(used) == set(range(expected))  # the fewest GPUs, from 0; never the CPU or the disk
    logits = (BATCH_TOKENS + 256) * 152_064 * 4
    for gpu, size in used.items():
        assert size <= placement.max_memory[gpu] - (logits if gpu == expected - 1 else 0), (gpu, size)
    if expected > 1:
        assert device_map["model.embed_tokens"] == 0 and device_map["lm_head"] == expected - 1
    # the jobs ask for at least as many GPUs as the loader needs (benchval.jobs.cluster_resources, same card)
    size_b = sum(p.numel() for p in model.parameters()) / 1e9
    assert gpus_needed(size_b, "bfloat16", card, BATCH_TOKENS) >= expected


def test_one_gpu_model_goes_whole_to_its_gpu_and_a_split_one_keeps_its_map(fake_cuda, meta_models):
    small = Placement.from_model_entry(ENTRY, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[80, 80])
    whole = planned(small, shape_config("7b"))
    assert (whole.device, whole.device_map, whole.from_pretrained_kwargs()) == ("cuda:0", None, {})
    split = planned(small, shape_config("32b"))
    assert set(split.device_map.values()) == {0, 1}
    assert split.from_pretrained_kwargs() == {"device_map": split.device_map}


def test_cpu_offload_only_on_top_of_the_gpus(fake_cuda, meta_models):
    """The old `cpu_offload_gb` without `max_memory_per_gpu_gb` built {'cpu': '100GB'}: accelerate put
    every module on the CPU and the loader then moved the whole model to the first GPU."""
    model, config = meta_models["72b"], shape_config("72b")
    entry = {**ENTRY, "cpu_offload_gb": 100}
    placement = Placement.from_model_entry(entry, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[80])
    assert placement.max_memory == {0: 72 * GB, "cpu": 100 * GB}
    used = bytes_per_device(model, plan_device_map(config, placement, meta=model))
    assert set(used) == {0, "cpu"}
    assert used[0] > 55 * GB and used["cpu"] <= 100 * GB
    # with a second GPU, nothing goes to the host RAM until both GPUs are full
    two = Placement.from_model_entry(entry, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[80, 80])
    assert set(bytes_per_device(model, plan_device_map(config, two, meta=model))) == {0, 1, "cpu"}
    thirty_two = plan_device_map(shape_config("32b"), two, meta=meta_models["32b"])
    assert set(thirty_two.values()) == {0, 1}
    # too little offload still fails before loading
    short = Placement.from_model_entry({**ENTRY, "cpu_offload_gb": 20}, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[80])
    with pytest.raises(ModelDoesNotFit, match=r"plus 20\.0 GB of host RAM"):
        plan_device_map(config, short, meta=model)


def test_max_memory_per_gpu_gb_caps_every_gpu(fake_cuda, meta_models):
    model, config = meta_models["32b"], shape_config("32b")
    entry = {**ENTRY, "max_memory_per_gpu_gb": 45}
    placement = Placement.from_model_entry(entry, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[96, 96])
    assert placement.max_memory == {0: 45 * GB, 1: 45 * GB, "cpu": 0}
    used = bytes_per_device(model, plan_device_map(config, placement, meta=model))
    assert set(used) == {0, 1} and max(used.values()) <= 45 * GB


def test_the_numbers_of_a_model_that_does_not_fit(fake_cuda, meta_models):
    placement = Placement.from_model_entry(ENTRY, batch_tokens=BATCH_TOKENS, gpu_memory_gb=[80, 80])
    with pytest.raises(ModelDoesNotFit) as error:
        plan_device_map(shape_config("72b"), placement, "qwen2.5-72b-instruct", meta=meta_models["72b"])
    message = str(error.value)
    numbers = ("145.4 GB of bfloat16", "72.0, 72.0 GB", "10.1 GB of float32 logits", "133.9 GB in all", "short by 11.5")
    for number in numbers:
        assert number in message, message


def test_the_loader_fails_before_reading_a_weight(fake_cuda, monkeypatch, tmp_path):
    from benchval.testing.tiny import save_model, tiny_llama, tiny_tokenizer

    tokenizer = tiny_tokenizer(False)
    folder = save_model(tiny_llama(len(tokenizer), seed=0), tokenizer, tmp_path / "tiny")

    def no_load(*args, **kwargs):
        raise AssertionError("weights were read")

    monkeypatch.setattr(loader_module.AutoModelForCausalLM, "from_pretrained", no_load)
    placement = Placement.from_model_entry({**ENTRY, "max_memory_per_gpu_gb": 1e-6}, gpu_memory_gb=[80])
    with pytest.raises(ModelDoesNotFit, match="do not fit the declared devices"):
        loader_module.load_model(folder, placement)


def test_no_visible_gpu_is_a_clear_error(fake_cuda):
    from benchval.models.placement import ModelLoadError

    with pytest.raises(ModelLoadError, match="no GPU is visible"):
        Placement.from_model_entry(ENTRY, gpu_memory_gb=[])


def test_the_docs_table_shows_these_maps(meta_models):
    """docs/cluster.md's table of planned maps is EXPECTED, with the weights' size of each shape."""
    import re
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "cluster.md").read_text()
    columns = [(80, 1), (80, 2), (80, 4), (96, 1), (96, 2), (96, 4)]
    for shape, model in meta_models.items():
        size = sum(p.numel() * p.element_size() for p in model.parameters()) / GB
        cells = ["fails" if EXPECTED[shape, card, n] is None else str(EXPECTED[shape, card, n]) for card, n in columns]
        row = f"| {shape.upper()} ({size:.1f} GB) | " + " | ".join(cells) + " |"
        assert re.search(re.escape(row), docs), row
