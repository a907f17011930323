"""Tiny random-weight models of every architecture the fast engine claims exact, offline tokenizers, real items.

The paper's models are GPT-NeoX (Pythia), OPT, Qwen 2 (Qwen 2.5), Llama (Llama 3), Gemma 2 and
Mistral; the engine also claims Gemma 3 (the offline Gemma-3-270M's architecture), so that is here
too (:data:`ARCHITECTURES` equals ``benchval.scoring.engine.EXACT_MODEL_TYPES``, as a test checks).
:func:`build_architecture` builds each from its transformers config class with 2 layers and
hidden size 32, the vocabulary resized to the tokenizer's, and the features that change how a
packed row must be fed switched on:

- GPT-NeoX: partial rotary embeddings (``partial_rotary_factor`` 0.25, as Pythia);
- OPT: learned absolute positions with their offset of 2;
- Qwen 2: sliding-window attention on the upper layer (``use_sliding_window``, ``max_window_layers``);
- Llama: grouped-query attention, full attention;
- Gemma 2: final-logit and attention-logit soft-capping, sliding window on alternate layers;
- Mistral: sliding-window attention on every layer (no ``layer_types`` in its config);
- Gemma 3: a sliding (local) layer below a full (global) one, each with its own rotary base,
  query-key norms and the scaled embeddings of Gemma.

Windows are :data:`WINDOW` tokens, shorter than the items, so that the window matters.

Tokenizers (:func:`offline_tokenizer`): the prepared real models' tokenizers where prepared
(``resources/models/<name>/``: Gemma 3 adds BOS, SmolLM2 and Qwen 2.5 do not; the suite prepares
SmolLM2's, :mod:`benchval.testing.prepared_models`), and the tiny BPE
tokenizers of :mod:`benchval.testing.tiny` (with and without BOS), which always exist. OPT's, Llama
3's and Mistral's own tokenizers cannot be had offline and are untested here.

Real items (:func:`real_items`): the first items of a task, built by its adapter from the raw-data
mirror exactly as the workflow builds them (one task per scoring mode: :data:`MODE_TASKS`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import yaml

from benchval.plumbing.config import catalogue_files
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.tiny import common_config, tiny_tokenizer
from benchval.plumbing.config_error import unknown_name

ARCHITECTURES = ("gpt_neox", "opt", "qwen2", "llama", "gemma2", "mistral", "gemma3_text")
WINDOW = 5  # sliding window in tokens: shorter than every item used
MODE_TASKS = {"mc": "hellaswag", "partial": "winogrande", "calibrated": "cei", "minimal_pair": "blimp"}
REAL_TOKENIZERS = {"gemma3-270m": True, "smollm2-135m": False, "qwen2.5-coder-0.5b": False}  # name: adds BOS


def architecture_config(arch: str, vocab: int, window: int | None = WINDOW):
    """The transformers config of a tiny ``arch`` model with a ``vocab``-token vocabulary.

    ``window``: the sliding window of Qwen 2, Gemma 2 and Mistral (None: full attention everywhere,
    to show that the window changes the scores)."""
    import transformers as tf

    common = common_config(vocab)
    if arch == "gpt_neox":
        return tf.GPTNeoXConfig(
            **common,
            intermediate_size=64,
            use_parallel_residual=True,
            rope_parameters={"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25},
        )
    if arch == "opt":
        return tf.OPTConfig(**common, ffn_dim=64, word_embed_proj_dim=32, do_layer_norm_before=True)
    if arch == "qwen2":
        return tf.Qwen2Config(
            **common,
            intermediate_size=64,
            num_key_value_heads=2,
            use_sliding_window=window is not None,
            sliding_window=window,
            max_window_layers=1,
        )
    if arch == "llama":
        return tf.LlamaConfig(**common, intermediate_size=64, num_key_value_heads=2)
    if arch == "gemma2":
        return tf.Gemma2Config(
            **common,
            intermediate_size=64,
            num_key_value_heads=2,
            head_dim=8,
            query_pre_attn_scalar=8,
            sliding_window=window or 4096,
            final_logit_softcapping=5.0,
            attn_logit_softcapping=2.0,
        )
    if arch == "mistral":
        return tf.MistralConfig(
            **common, intermediate_size=64, num_key_value_heads=2, head_dim=8, sliding_window=window
        )
    if arch == "gemma3_text":
        return tf.Gemma3TextConfig(
            **common,
            intermediate_size=64,
            num_key_value_heads=2,
            head_dim=8,
            query_pre_attn_scalar=8,
            sliding_window=window or 4096,
            layer_types=["sliding_attention", "full_attention"],
        )
    raise ValueError(unknown_name("architecture", arch, ARCHITECTURES, "benchval.testing.architectures.ARCHITECTURES"))


def build_architecture(arch: str, vocab: int, seed: int = 0, window: int | None = WINDOW):
    """A tiny ``arch`` causal LM with random weights (seeded), float32, eval mode.

    The output layer is scaled up so that the distributions are sharp enough for greedy flags and
    soft-capping to matter (random init gives nearly uniform distributions).
    """
    import torch
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(architecture_config(arch, vocab, window), dtype=torch.float32)
    with torch.no_grad():
        model.get_output_embeddings().weight.mul_(20)
    return model.eval()


def offline_tokenizer(name: str):
    """``bpe-bos`` / ``bpe-nobos`` (tiny BPE, always there) or a prepared model's tokenizer (None if
    that model is not prepared under resources/models/)."""
    if name in ("bpe-bos", "bpe-nobos"):
        return tiny_tokenizer(add_bos=name == "bpe-bos")
    if name not in REAL_TOKENIZERS:
        raise ValueError(f"unknown offline tokenizer {name!r}")
    folder = REPO_ROOT / "resources" / "models" / name
    if not (folder / "benchval-model.json").exists():
        return None
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(folder)


def vocab_size(tokenizer) -> int:
    """Model vocabulary for ``tokenizer``: every id it can produce (added tokens included)."""
    return max(len(tokenizer), max(tokenizer.get_vocab().values()) + 1)


def real_items(task: str, n: int, mirror: Path | None = None) -> pd.DataFrame:
    """The first ``n`` items of ``task`` built by its adapter from the raw-data mirror (as the
    workflow's prepare_task builds them, without subsampling). Raises FileNotFoundError without a mirror."""
    from benchval.tasks.base import AdapterInput, FilterReport, get_adapter

    mirror = mirror or default_mirror()
    if mirror is None:
        raise FileNotFoundError("no raw-data mirror (../shared/data/raw beside the checkout)")
    catalogue: dict = {"datasets": {}, "tasks": {}}
    for path in catalogue_files(REPO_ROOT / "config" / "catalogue"):
        part = yaml.safe_load(path.read_text())
        catalogue["datasets"].update(part.get("datasets") or {})
        catalogue["tasks"].update(part.get("tasks") or {})
    spec = catalogue["tasks"][task]
    files = {key: mirror / f["path"] for key, f in catalogue["datasets"][spec["dataset"]]["files"].items()}
    adapter = get_adapter(spec["adapter"])
    items = list(
        adapter(AdapterInput(task, files, dict(spec.get("options") or {}), 0, spec["scoring_mode"]), FilterReport(task))
    )[:n]
    return pd.DataFrame(
        [
            {
                "id": i.id,
                "context": i.context,
                "options": list(i.options),
                "label": i.label,
                "target": getattr(i, "target", None),
            }
            for i in items
        ]
    )
