import pandas as pd
import pytest

from benchval.analysis.displacement import mean_abs_rank_displacement, pair_table, table4, top_k, top_k_jaccard
from benchval.analysis.settings import AnalysisSettings


def test_hand_computed_displacement_and_jaccard():
    models = list("abcde")
    x = pd.Series([5, 4, 3, 2, 1.0], index=models)  # ranks a1 b2 c3 d4 e5
    y = pd.Series([1, 4, 5, 2, 3.0], index=models)  # ranks a5 b2 c1 d4 e3
    assert mean_abs_rank_displacement(x, y) == pytest.approx((4 + 0 + 2 + 0 + 2) / 5)
    assert top_k(x, 3) == {"a", "b", "c"} and top_k(y, 3) == {"c", "b", "e"}
    assert top_k_jaccard(x, y, 3) == pytest.approx(2 / 4)


def test_top_k_ties_broken_by_name():
    assert top_k(pd.Series([1.0, 1.0, 1.0, 0.0], index=["z", "b", "a", "c"]), 2) == {"a", "b"}


def test_table4_averages_over_downstream_tasks(study):
    settings = AnalysisSettings()
    pairs = pair_table(study, "accuracy", study.wide("accuracy"), settings)
    table = table4(pairs, study, ["accuracy"], 3)
    row = table.set_index("benchmark").loc["piqa"]
    subset = pairs[pairs.benchmark == "piqa"]
    assert row.n_downstream_tasks == 8
    assert row.mean_rho == pytest.approx(subset.rho.mean())
    assert row.mean_top3_jaccard == pytest.approx(subset.top_k_jaccard.mean())
    assert table.mean_rho.is_monotonic_decreasing
