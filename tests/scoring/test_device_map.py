"""A model spread over devices (benchval.models.placement): the same scores and the same generations.

No GPU here, so the layers are split between the CPU and the disk (accelerate's offload folder):
the path of a multi-GPU load (device map, accelerate hooks, inputs on the first layer's device,
targets on the logits' device, `logits_to_keep` left in place). What only GPUs can show -- tensors
on two different GPUs -- is listed in docs/cluster.md.
"""

import numpy as np
import pytest
import torch
from scoring_fixtures import make_items, make_tokenizer

from benchval.generation.hf import HFGenerator
from benchval.generation.prompts import user
from benchval.models import placement as placement_module
from benchval.models.loader import load_model
from benchval.models.placement import Placement, input_device, is_dispatched
from benchval.scoring.scorer_factory import make_scorer
from benchval.scoring.requests import build_requests
from benchval.testing.tiny import save_model, tiny_llama

MODES = ("mc", "partial", "calibrated", "minimal_pair")


@pytest.fixture(scope="module")
def four_layer_llama(tmp_path_factory):
    tokenizer = make_tokenizer(True)
    model = tiny_llama(len(tokenizer), seed=7, sharpen=True, layers=4, max_positions=256)
    return save_model(model, tokenizer, tmp_path_factory.mktemp("models") / "llama4")


def split_placement(offload_folder) -> Placement:
    """Half the layers on the CPU, half (and the final norm) offloaded to disk."""
    device_map = {
        "model.embed_tokens": "cpu",
        "model.rotary_emb": "cpu",
        "model.layers.0": "cpu",
        "model.layers.1": "cpu",
        "model.layers.2": "disk",
        "model.layers.3": "disk",
        "model.norm": "disk",
        "lm_head": "cpu",
    }
    return Placement("cpu", "float32", device_map=device_map, offload_folder=str(offload_folder))


@pytest.fixture(scope="module")
def whole_and_split(four_layer_llama, tmp_path_factory):
    whole = load_model(four_layer_llama)
    split = load_model(four_layer_llama, split_placement(tmp_path_factory.mktemp("offload")))
    return whole, split


def test_the_split_model_really_is_split(whole_and_split):
    (whole, _), (split, _) = whole_and_split
    assert not is_dispatched(whole) and is_dispatched(split)
    assert set(split.hf_device_map.values()) == {"cpu", "disk"}
    assert split.model.layers[3].self_attn.q_proj.weight.device.type == "meta"  # on disk until used
    assert input_device(split) == torch.device("cpu")
    assert "logits_to_keep" in split._hf_hook.skip_keys


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_scores_of_the_split_model_equal_the_whole_model(whole_and_split, engine):
    (whole, tokenizer), (split, _) = whole_and_split
    for mode in MODES:
        requests = build_requests(make_items(mode), mode)
        expected = make_scorer(engine, whole, tokenizer, batch_tokens=64).score(requests)
        got = make_scorer(engine, split, tokenizer, batch_tokens=64, dtype="float32").score(requests)
        assert np.max(np.abs(got["logprob_sum"] - expected["logprob_sum"])) <= 1e-5, mode
        assert (got["is_greedy"] == expected["is_greedy"]).all(), mode


def test_a_split_model_is_not_recast(whole_and_split):
    (_, tokenizer), (split, _) = whole_and_split
    with pytest.raises(ValueError, match="spread over devices is in torch.float32; load it in torch.bfloat16"):
        make_scorer("fast", split, tokenizer, dtype="bfloat16")


def test_generations_of_the_split_model_equal_the_whole_model(whole_and_split):
    (whole, tokenizer), (split, _) = whole_and_split
    prompts = [user("The cats are"), user("We watched the sunset from"), user("He put the books on the")]
    expected = HFGenerator(whole, tokenizer, use_chat_template=False).generate(prompts, 8, first_line=False)
    got = HFGenerator(split, tokenizer, use_chat_template=False).generate(prompts, 8, first_line=False)
    assert got == expected and any(expected)
    options = ["cats", "dogs", "books"]
    for one, other in zip(
        HFGenerator(split, tokenizer, use_chat_template=False).first_token_choice(prompts, options),
        HFGenerator(whole, tokenizer, use_chat_template=False).first_token_choice(prompts, options),
    ):
        assert one == pytest.approx(other, abs=1e-5)


def test_a_model_entry_caps_every_visible_gpu(monkeypatch):
    """Placement.from_model_entry with 1 or 4 visible GPUs (CUDA faked: the decision, not a load):
    every GPU gets an explicit cap, the host RAM only the offload allowance (tests/models/test_device_plan.py
    plans the maps)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    gpus = {"n": 4}
    monkeypatch.setattr(torch.cuda, "device_count", lambda: gpus["n"])
    monkeypatch.setattr(placement_module, "visible_gpu_memory_gb", lambda: [80.0] * gpus["n"])
    entry = {"device": "cuda", "dtype": "bfloat16"}
    default = Placement.from_model_entry(entry)
    assert default.device_map == "auto" and default.max_memory == {**{i: 72e9 for i in range(4)}, "cpu": 0}
    capped = Placement.from_model_entry({**entry, "max_memory_per_gpu_gb": 70, "cpu_offload_gb": 200})
    assert capped.max_memory == {0: 70e9, 1: 70e9, 2: 70e9, 3: 70e9, "cpu": 200e9}
    with pytest.raises(ValueError, match="plan the device map first"):
        capped.from_pretrained_kwargs()
    gpus["n"] = 1
    offload = Placement.from_model_entry({**entry, "cpu_offload_gb": 100})
    assert offload.max_memory == {0: 72e9, "cpu": 100e9}  # was {"cpu": "100GB"}: every module on the CPU
    assert Placement.from_model_entry({"device": "cpu", "max_memory_per_gpu_gb": 70}) == Placement("cpu")


def test_cuda_asked_where_there_is_none_is_a_clear_error(monkeypatch):
    from benchval.models.placement import ModelLoadError

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ModelLoadError, match="device 'cuda' requested but CUDA is not available here"):
        placement_module.Placement.from_model_entry({"device": "cuda"})
