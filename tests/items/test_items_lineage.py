"""Families by lineage: the MiniBERTa seeds of one pretraining size are one family, and no
leave-one-family-out fold may train on a sibling of a held-out model."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchval.items import lineage
from benchval.items.inference import lofo_permuted_scores
from benchval.items.subsets import lofo_criterion_scores

ENCODERS = [
    "albert-xxlarge-v2",
    "bert-base-cased",
    "bert-large-cased",
    "roberta-base",
    "roberta-large",
    "xlm-roberta-large",
    *(f"roberta-base-{size}-{seed}" for size in ("100M", "10M", "1B") for seed in (1, 2, 3)),
    *(f"roberta-med-small-1M-{seed}" for seed in (1, 2, 3)),
]


def test_nlu_encoders_group_by_pretraining_size():
    families = lineage.lineage_families(ENCODERS)
    assert len(ENCODERS) == 18 and len(set(families.values())) == 10
    assert families["roberta-base-100M-2"] == "roberta-base-100M"
    assert families["roberta-med-small-1M-3"] == "roberta-med-small-1M"
    assert families["roberta-base"] == "roberta-base" and families["roberta-large"] == "roberta-large"
    # a registry family is kept as it is (MMLU-Pro); a model without one is its own
    assert lineage.lineage_families(["Llama-3-8B", "x"], {"Llama-3-8B": "llama"}) == {"Llama-3-8B": "llama", "x": "x"}


def _study(models, rng):
    matrix = pd.DataFrame(rng.random((len(models), 40)).round(), index=models, columns=[f"i{j}" for j in range(40)])
    return matrix, pd.Series(rng.normal(size=len(models)), index=models)


def test_a_made_up_sibling_seed_in_the_training_fold_is_rejected():
    """``roberta-base-100M-4`` (no such run exists) is a fourth seed of roberta-base-100M. Given its own
    family (the old grouping: one family per encoder), the fold that holds out roberta-base-100M would
    train on it: the fold check rejects that, in the selection and in its permutation null."""
    models = [*ENCODERS, "roberta-base-100M-4"]
    matrix, criterion = _study(models, np.random.default_rng(3))
    lineages = lineage.lineage_families(models)
    per_encoder = pd.Series(models, index=models)  # the old grouping
    with pytest.raises(ValueError, match="fold leaks: training models .*roberta-base-100M"):
        lofo_criterion_scores(matrix, criterion, per_encoder, [5], 4, lineages)
    names = np.asarray(models)
    with pytest.raises(ValueError, match="fold leaks"):
        lofo_permuted_scores(
            matrix.to_numpy(),
            criterion.to_numpy()[:, None],
            per_encoder.to_numpy(),
            [5],
            4,
            lambda train, held: lineage.check_fold(names[train], names[held], lineages),
        )
    # by lineage the sibling is held out with its siblings, and every fold passes the check
    by_lineage = pd.Series(lineages)
    folds = lofo_criterion_scores(matrix, criterion, by_lineage, [5], 4, lineages)[5][1]
    held = next(f for f in folds if f.family == "roberta-base-100M")
    assert set(held.held_out_models) == {f"roberta-base-100M-{s}" for s in (1, 2, 3, 4)}
    assert len(folds) == 10


def test_a_study_may_merge_lineages_but_not_split_one():
    lineages = lineage.lineage_families(["roberta-base-10M-1", "roberta-base-10M-2", "roberta-base"])
    merged = lineage.merge_families(
        lineages, {"roberta-base-10M-1": "roberta", "roberta-base-10M-2": "roberta", "roberta-base": "roberta"}
    )
    assert set(merged.values()) == {"roberta"}
    with pytest.raises(ValueError, match="splits lineage 'roberta-base-10M'"):
        lineage.merge_families(lineages, {"roberta-base-10M-1": "a"})
