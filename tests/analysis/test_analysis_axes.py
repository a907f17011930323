import numpy as np
import pytest
from scipy import stats

from benchval.analysis.axes import axis_tests, comparisons


def test_masks_hand_case():
    # benchmarks: B0 {social, pragmatic}, B1 {event, pragmatic}; tasks: T0 social, T1 pragmatic, T2 event
    grid = {
        (p, a): (s, c)
        for p, a, s, c in comparisons(
            [{"social", "pragmatic"}, {"event", "pragmatic"}], [{"social"}, {"pragmatic"}, {"event"}]
        )
    }
    same, cross = grid[("a", "social")]
    assert same.tolist() == [[True, False, False], [False, False, False]]
    assert cross.tolist() == [[False, True, True], [False, False, False]]
    same, cross = grid[("b", "event")]
    assert same.tolist() == [[False, False, False], [False, False, True]]
    assert cross.tolist() == [[False, False, True], [False, False, False]]
    same, cross = grid[("b", "pragmatic")]
    assert same[:, 1].all() and not cross.any()  # every benchmark is pragmatic: no out-of-axis benchmark
    same, cross = grid[("global", "all")]
    assert same.tolist() == [[True, True, False], [False, True, True]]


def test_axis_test_values_match_scipy(study, settings):
    wide = study.wide("accuracy")
    table = axis_tests(study, "accuracy", wide, settings).set_index(["panel", "axis"])
    z = lambda a, b: np.arctanh(stats.spearmanr(wide[a], wide[b]).statistic)  # noqa: E731
    social_b, social_t = ["siqa", "siqa_filtered"], ["cei", "sarc7", "false_beliefs"]
    other_t = ["implicature", "presupposition", "indirect_requests", "timedial", "trip"]
    same = np.mean([z(b, t) for b in social_b for t in social_t])
    cross = np.mean([z(b, t) for b in social_b for t in other_t])
    row = table.loc[("a", "social")]
    assert row.mean_z_same == pytest.approx(same) and row.mean_z_cross == pytest.approx(cross)
    assert row.estimate == pytest.approx(same - cross)
    assert row.ci_low < row.estimate < row.ci_high
    assert np.isnan(table.loc[("b", "pragmatic"), "estimate"])
    assert "no commonsense benchmark outside the pragmatic axis" in table.loc[("b", "pragmatic"), "note"]
    assert row.n_boot_valid == settings.n_bootstrap
