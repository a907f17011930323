"""Tiny random-weight causal LMs with an offline BPE tokenizer, and a small workflow config.

The workflow tests (local and on SLURM) run the real rules on these instead of downloaded models:
each is a plain Hugging Face folder, declared in config as ``source: {type: local, path: ...}``.
Every test that needs a tiny model builds it here: :func:`tiny_llama` (and :func:`common_config`
for other decoder architectures, e.g. :mod:`benchval.testing.architectures`), :func:`tiny_tokenizer`
on its own corpus, :func:`build_tiny_encoder` (a BERT for BERTScore).
"""

from __future__ import annotations

from pathlib import Path

import yaml

from benchval.plumbing.folders import REPO_ROOT, default_mirror

_CORPUS = [
    "The cat sat on the mat because it was warm. She went to the store to buy bread.",
    "Question: How do you open a jar? Answer: twist the lid. The speaker feels happy, sad or angry.",
    "He could not lift the box because it was too heavy. They played football in the park.",
    "Is this sentence grammatical? Yes. No. True or false. The answer is A, B, C or D.",
] * 10
SPECIAL_IDS = (0, 1, 2)  # <bos>, <eos>, <pad> in the tiny BPE tokenizers


def tiny_tokenizer(add_bos: bool, corpus: list[str] = _CORPUS, vocab_size: int = 400):
    """A byte-level BPE tokenizer trained offline on ``corpus``; ``add_bos``: prepend <bos> like Gemma.

    Special tokens <bos>, <eos>, <pad> have ids 0, 1, 2 (:data:`SPECIAL_IDS`)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE(unk_token=None))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<bos>", "<eos>", "<pad>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(corpus, trainer)
    if add_bos:
        bos = tokenizer.token_to_id("<bos>")
        tokenizer.post_processor = processors.TemplateProcessing(
            single="<bos> $A", pair="<bos> $A $B", special_tokens=[("<bos>", bos)]
        )
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>")


def common_config(
    vocab: int,
    *,
    hidden: int = 32,
    layers: int = 2,
    heads: int = 4,
    max_positions: int = 4096,
    special_ids: tuple[int | None, int | None, int | None] = SPECIAL_IDS,
) -> dict:
    """The config keywords every tiny decoder shares; ``special_ids``: (bos, eos, pad) token ids."""
    bos, eos, pad = special_ids
    return dict(
        vocab_size=vocab,
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        max_position_embeddings=max_positions,
        bos_token_id=bos,
        eos_token_id=eos,
        pad_token_id=pad,
    )


def tiny_llama(vocab: int, seed: int, sharpen: bool = False, **common):
    """A llama-architecture causal LM with random weights (seeded), float32, eval mode.

    ``common``: keywords of :func:`common_config` (intermediate size: twice the hidden size, 2
    key-value heads). ``sharpen``: scale the output layer up (x20), so that the distributions are
    sharp enough for greedy flags and generations to vary (random init gives nearly uniform ones).
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config_keywords = common_config(vocab, **common)
    torch.manual_seed(seed)
    config = LlamaConfig(**config_keywords, intermediate_size=2 * config_keywords["hidden_size"], num_key_value_heads=2)
    model = LlamaForCausalLM(config)
    if sharpen:
        with torch.no_grad():
            model.lm_head.weight.mul_(20)
    return model.eval()


def save_model(model, tokenizer, path: Path) -> Path:
    """Save ``model`` and ``tokenizer`` to ``path`` as one Hugging Face folder."""
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return Path(path)


def build_tiny_model(path: Path, seed: int, add_bos: bool = False, layers: int = 2) -> Path:
    """Save a llama-architecture model with random weights (seeded) and its tokenizer to ``path``."""
    tokenizer = tiny_tokenizer(add_bos)
    return save_model(tiny_llama(len(tokenizer), seed, layers=layers, max_positions=2048), tokenizer, path)


def build_tiny_encoder(folder: Path, words: list[str]) -> str:
    """Save a random-weight (seed 0) 2-layer BERT with a word-level tokenizer over ``words`` to ``folder``."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=128,
    )
    fast.save_pretrained(folder)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
    )
    BertModel(config).save_pretrained(folder)
    return str(folder)


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
        # the default config's check answers come from one of its own models, which the tiny run lacks
        judge_check={**config.get("commonwhy_eval", {}).get("judge_check", {}), "answer_models": []},
        baselines={"backbone": None},
    )
    if "analysis" in config and isinstance(config["analysis"], dict):
        config["analysis"]["n_bootstrap"] = n_bootstrap
    config.pop("items", None)  # the item studies read mirror sources of their own: tests/items, bench_items.py
    path = root / "tiny-config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path
