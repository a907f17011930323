from collections import Counter
from itertools import permutations

import numpy as np
import pandas as pd
import pytest

from benchval.analysis.displacement import (
    expected_top_k_jaccard,
    mean_abs_rank_displacement,
    pair_table,
    table4,
    top_k_cut,
)
from benchval.analysis.settings import settings_from_config


def test_hand_computed_displacement_and_jaccard():
    models = list("abcde")
    x = pd.Series([5, 4, 3, 2, 1.0], index=models)  # ranks a1 b2 c3 d4 e5
    y = pd.Series([1, 4, 5, 2, 3.0], index=models)  # ranks a5 b2 c1 d4 e3
    assert mean_abs_rank_displacement(x, y) == pytest.approx((4 + 0 + 2 + 0 + 2) / 5)
    assert top_k_cut(x, 3) == ({"a", "b"}, {"c"}, 1)  # the k-th model itself is "tied" with itself
    assert expected_top_k_jaccard(x, y, 3) == pytest.approx(2 / 4)  # no ties: the plain Jaccard


def test_top_k_jaccard_ties_at_the_cut_hand_computed():
    # benchmark: a > b > c = d, so the top 3 is {a, b, c} or {a, b, d}, each with probability 1/2;
    # task: a > b > c > d, top 3 {a, b, c}. Jaccard 1 or 2/4: expected 3/4 (by name: c, hence 1).
    x = pd.Series([4, 3, 2, 2.0], index=list("abcd"))
    y = pd.Series([4, 3, 2, 1.0], index=list("abcd"))
    assert top_k_cut(x, 3) == ({"a", "b"}, {"c", "d"}, 1)
    assert expected_top_k_jaccard(x, y, 3) == pytest.approx(0.75)
    renamed = x.rename({"c": "z"}), y.rename({"c": "z"})
    assert expected_top_k_jaccard(*renamed, 3) == pytest.approx(0.75)  # names do not matter


def _enumerated_jaccard(x: pd.Series, y: pd.Series, k: int) -> float:
    """Mean Jaccard over every tie-breaking order of both rankings (brute force)."""

    def top_sets(scores):
        counts, values, names = Counter(), scores.to_numpy(), list(scores.index)
        for order in permutations(range(len(values))):  # a random order breaks ties (stable sort)
            ranked = sorted(order, key=lambda i: -values[i])
            counts[frozenset(names[i] for i in ranked[:k])] += 1
        total = sum(counts.values())
        return {top: n / total for top, n in counts.items()}

    return sum(pa * pb * len(a & b) / len(a | b) for a, pa in top_sets(x).items() for b, pb in top_sets(y).items())


@pytest.mark.parametrize("seed", range(6))
def test_expected_top_k_jaccard_equals_enumeration_over_tie_orders(seed):
    rng = np.random.default_rng(seed)
    models = list("abcde")
    x = pd.Series(rng.integers(0, 3, 5).astype(float), index=models)
    y = pd.Series(rng.integers(0, 3, 5).astype(float), index=models)
    for k in (1, 2, 3):
        assert expected_top_k_jaccard(x, y, k) == pytest.approx(_enumerated_jaccard(x, y, k), abs=1e-12)


def test_table4_averages_over_downstream_tasks(study):
    settings = settings_from_config({"seed": 12345})
    pairs = pair_table(study, "accuracy", study.wide("accuracy"), settings)
    table = table4(pairs, study, ["accuracy"], 3)
    row = table.set_index("benchmark").loc["piqa"]
    subset = pairs[pairs.benchmark == "piqa"]
    assert row.n_downstream_tasks == 8
    assert row.mean_rho == pytest.approx(subset.rho.mean())
    assert row.mean_top3_jaccard == pytest.approx(subset.top_k_jaccard.mean())
    assert table.mean_rho.is_monotonic_decreasing
