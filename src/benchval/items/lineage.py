"""Families by lineage: the grouping every leave-one-family-out step of the item studies uses (docs/items.md).

A family is a lineage: models that share pretraining (weights or data and recipe), so that one of them
in a training fold tells the selection about the held-out ones.

* ``nlu_test_sets``: the pretrained encoder with its seed removed. The MiniBERTa runs
  ``roberta-base-100M-1/-2/-3`` are three seeds of one pretraining size (replicates, one family
  ``roberta-base-100M``); every other encoder (``roberta-large``, ``bert-base-cased``, ...) is its own.
  18 encoders -> 10 families.
* ``mmlu_pro_outputs`` and the atlas-joined sources: the model registry's family (``llama``, ``qwen``, ...);
  a model the registry gives no family is its own.
* A study's ``families:`` may merge lineages, never split one: :func:`check_fold` rejects a fold whose
  training models share a lineage with its held-out models.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

#: a MiniBERTa encoder: pretraining size (``roberta-base-100M``, ``roberta-med-small-1M``) and seed
MINIBERTA_SEED = re.compile(r"^(?P<lineage>roberta-(?:base|med-small)-\d+[MB])-(?P<seed>\d+)$")


def nlu_lineage(encoder: str) -> str:
    """The lineage of an nlu_test_sets encoder: its pretraining size for a MiniBERTa seed, else itself."""
    match = MINIBERTA_SEED.match(encoder)
    return match.group("lineage") if match else encoder


def lineage_families(models: Iterable[str], families: Mapping[str, str] | None = None) -> dict:
    """model -> lineage: the model's family (``families``: the source's or the registry's; else the model
    itself) with a MiniBERTa seed removed (:func:`nlu_lineage`; a name of another source never matches)."""
    families = families or {}
    return {m: nlu_lineage(str(families.get(m) or m)) for m in models}


def merge_families(lineage: Mapping[str, str], overrides: Mapping[str, str]) -> dict:
    """The study's ``families:`` over the lineages; an override that splits a lineage fails, naming it."""
    families = {m: str(overrides.get(m, f)) for m, f in lineage.items()}
    by_lineage: dict[str, set] = {}
    for model, lineage_name in lineage.items():
        by_lineage.setdefault(lineage_name, set()).add(families[model])
    split = {name: sorted(groups) for name, groups in by_lineage.items() if len(groups) > 1}
    if split:
        name, groups = next(iter(sorted(split.items())))
        raise ValueError(
            f"items.studies.<study>.families splits lineage {name!r} into families {groups}: "
            "seeds or fine-tunes of one lineage must share a family (merge them)"
        )
    return families


def check_fold(training: Iterable[str], held_out: Iterable[str], lineage: Mapping[str, str]) -> None:
    """Fail when a training model shares a lineage with a held-out model (the fold would leak)."""
    held = {lineage.get(m, m) for m in held_out}
    leaking = sorted(m for m in training if lineage.get(m, m) in held)
    if leaking:
        raise ValueError(
            f"leave-one-family-out fold leaks: training models {leaking[:5]} share a lineage with the held-out "
            f"models ({sorted(held)[:5]})"
        )
