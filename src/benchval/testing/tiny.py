"""Tiny random-weight causal LMs with an offline BPE tokenizer, and a small workflow config.

The workflow tests (local and on SLURM) run the real rules on these instead of downloaded models:
each is a plain Hugging Face folder, declared in config as ``source: {type: local, path: ...}``.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from benchval.paths import REPO_ROOT, default_mirror

_CORPUS = [
    "The cat sat on the mat because it was warm. She went to the store to buy bread.",
    "Question: How do you open a jar? Answer: twist the lid. The speaker feels happy, sad or angry.",
    "He could not lift the box because it was too heavy. They played football in the park.",
    "Is this sentence grammatical? Yes. No. True or false. The answer is A, B, C or D.",
] * 10


def tiny_tokenizer(add_bos: bool):
    """A 400-token byte-level BPE tokenizer trained offline; ``add_bos``: prepend <bos> like Gemma."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE(unk_token=None))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<bos>", "<eos>", "<pad>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(_CORPUS, trainer)
    if add_bos:
        bos = tokenizer.token_to_id("<bos>")
        tokenizer.post_processor = processors.TemplateProcessing(
            single="<bos> $A", pair="<bos> $A $B", special_tokens=[("<bos>", bos)]
        )
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>")


def build_tiny_model(path: Path, seed: int, add_bos: bool = False, layers: int = 2) -> Path:
    """Save a llama-architecture model with random weights (seeded) and its tokenizer to ``path``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = tiny_tokenizer(add_bos)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=2048,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=2,
    )
    model = LlamaForCausalLM(config).eval()
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return Path(path)


TINY_MODELS = {
    # name: (family, size_b, seed, add_bos)
    "tiny-a1": ("fam-a", 0.001, 1, False),
    "tiny-a2": ("fam-a", 0.002, 2, False),
    "tiny-b1": ("fam-b", 0.001, 3, True),
}
# goldenswag needs the Hugging Face Hub: offline it flows through as "unavailable" (no scores).
TINY_TASKS = ["winogrande", "winowhat", "hellaswag", "goldenswag", "false_beliefs", "cei", "blimp"]


def tiny_workflow_config(root: Path, n_items: int = 4, n_bootstrap: int = 50, scoring_jobs: str = "per_task") -> Path:
    """Write a config for a small scored study on tiny models (built under ``root``) and return it.

    ``scoring_jobs``: config scoring.jobs; per_task by default, so that tests see one job per (model, task).
    """
    root = Path(root)
    config = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    config["mirror"] = str(default_mirror())
    config["sample"] = {"n_items": n_items, "per_task": {}}
    config["scoring"]["jobs"] = scoring_jobs
    config["models"] = {}
    for name, (family, size_b, seed, add_bos) in TINY_MODELS.items():
        folder = root / "tiny-models" / name
        if not (folder / "config.json").exists():
            build_tiny_model(folder, seed, add_bos)
        config["models"][name] = {
            "family": family,
            "size_b": size_b,
            "dtype": "float32",
            "device": "cpu",
            "source": {"type": "local", "path": str(folder)},
        }
    config["studies"] = {"tiny": {"source": "scored", "models": list(TINY_MODELS), "tasks": TINY_TASKS}}
    # CommonWhy evaluation stays declared (the config must validate) but outside the tiny study.
    first = next(iter(TINY_MODELS))
    config["commonwhy_eval"] = dict(
        config.get("commonwhy_eval", {}),
        models=[first],
        judge={"system": first, "decision": "calibrated"},
        baselines={"backbone": None},
    )
    if "analysis" in config and isinstance(config["analysis"], dict):
        config["analysis"]["n_bootstrap"] = n_bootstrap
    path = root / "tiny-config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path
