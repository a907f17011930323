"""Paired comparisons (benchval.evaluation.paired) and rank resolution (benchval.analysis.rank_resolution)."""

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from benchval.analysis.rank_resolution import (
    adjacent_from_intervals,
    adjacent_from_items,
    count_separable,
    rank_labels,
    scoreboard_ranks,
    tie_groups,
)
from benchval.evaluation.paired import PairedSettings, check_tidy, mcnemar_test, paired_table, task_comparison

SETTINGS = PairedSettings(seed=7, n_bootstrap=2000, ci_level=0.95)


def tidy(task: str, answers: dict[str, list[int]], source: str = "s") -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"source": source, "task": task, "item_id": f"i{i}", "model": model, "correct": float(c)}
            for model, correct in answers.items()
            for i, c in enumerate(correct)
        ]
    )


def table_answers(both: int, a_only: int, b_only: int, neither: int) -> dict[str, list[int]]:
    """Answers of models A and B whose 2x2 table is [[both, a_only], [b_only, neither]]."""
    return {
        "A": [1] * both + [1] * a_only + [0] * b_only + [0] * neither,
        "B": [1] * both + [0] * a_only + [1] * b_only + [0] * neither,
    }


@pytest.mark.parametrize("cells", [(30, 12, 3, 15), (50, 4, 9, 7), (5, 0, 6, 2), (10, 7, 7, 1)])
def test_mcnemar_equals_statsmodels_on_hand_made_tables(cells):
    both, a_only, b_only, neither = cells
    row = task_comparison(tidy("t", table_answers(*cells)), "s", "t", "A", "B", SETTINGS)
    table = [[both, a_only], [b_only, neither]]
    exact = mcnemar(table, exact=True)
    chi2 = mcnemar(table, exact=False, correction=True)
    assert row["a_only_correct"] == a_only and row["b_only_correct"] == b_only
    assert row["p_mcnemar_exact"] == pytest.approx(exact.pvalue, rel=1e-12)
    assert row["chi2"] == pytest.approx(chi2.statistic, rel=1e-12)
    assert row["p_mcnemar_chi2"] == pytest.approx(chi2.pvalue, rel=1e-12)
    assert row["difference"] == pytest.approx((a_only - b_only) / sum(cells))


def test_mcnemar_rejects_the_cheapest_wrong_version():
    """Without the continuity correction (or using all items, not the discordant ones) it is wrong: the
    statsmodels comparison above would catch it, shown here on the same table."""
    exact, chi2, _ = mcnemar_test(12, 3)
    uncorrected = mcnemar([[30, 12], [3, 15]], exact=False, correction=False).statistic
    assert chi2 != pytest.approx(uncorrected)
    assert mcnemar_test(0, 0)[0] == 1.0 and np.isnan(mcnemar_test(0, 0)[1])


def test_paired_interval_is_narrower_than_unpaired_when_models_agree():
    """Two models that agree on most items: the paired interval excludes 0 where the unpaired one would not."""
    answers = table_answers(both=120, a_only=14, b_only=2, neither=64)
    row = task_comparison(tidy("t", answers), "s", "t", "A", "B", SETTINGS)
    assert row["ci_low"] > 0
    a, b = np.array(answers["A"]), np.array(answers["B"])
    unpaired_se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert row["difference"] - 1.96 * unpaired_se < 0  # an unpaired z interval would include 0
    assert row["p_mcnemar_exact"] < 0.01


def test_pooled_comparison_weights_items_and_keeps_only_shared_items():
    first = tidy("t1", table_answers(10, 5, 1, 4))
    second = tidy("t2", table_answers(20, 2, 2, 6))
    extra = pd.DataFrame([{"source": "s", "task": "t2", "item_id": "only_a", "model": "A", "correct": 1.0}])
    table = paired_table(pd.concat([first, second, extra]), [("A", "B")], SETTINGS)
    pooled = table[table["task"] == "(pooled)"].iloc[0]
    assert pooled["n_items"] == 50 and pooled["n_items_unpaired"] == 1
    assert pooled["difference"] == pytest.approx((5 - 1 + 2 - 2) / 50)
    exact = mcnemar([[30, 7], [3, 10]], exact=True).pvalue
    assert pooled["p_mcnemar_exact"] == pytest.approx(exact)
    assert list(table["task"]) == ["t1", "t2", "(pooled)"]


def test_bad_item_frames_are_rejected_with_their_source():
    frame = tidy("t", {"A": [1, 0], "B": [0, 1]})
    with pytest.raises(ValueError, match="my.csv.*correct"):
        check_tidy(frame.assign(correct=[1, 0.5, 0, 1]), "my.csv")
    with pytest.raises(ValueError, match="repeat"):
        check_tidy(pd.concat([frame, frame.iloc[:1]]), "my.csv")
    with pytest.raises(ValueError, match="lacks column"):
        check_tidy(frame.drop(columns="item_id"), "my.csv")


def test_tie_groups_from_flags():
    assert tie_groups([True, False, False, True]) == [1, 2, 2, 2, 3]
    assert rank_labels([1, 2, 2, 2, 3], [True, False, False, True]) == ["1", "2-4", "2-4", "2-4", "5"]
    assert rank_labels([1, 1], [None]) == ["1-2?", "1-2?"]


def test_tie_groups_on_known_separable_and_inseparable_neighbours():
    """Five models on 400 items: A far ahead of B (separable), B, C, D within a few items of each other
    (inseparable), E far behind (separable). The paired groups must be {A}, {B, C, D}, {E}."""
    base = np.arange(400)
    b = (base < 240).astype(int)
    c, d = b.copy(), b.copy()
    c[200:220], c[300:316] = 0, 1  # C: 20 items B has right wrong, 16 others right: 4 fewer, both ways
    d[180:210], d[320:344] = 0, 1  # D: 30 wrong, 24 right: 6 fewer than B, 2 fewer than C, both ways
    answers = {"A": (base < 360).astype(int), "B": b, "C": c, "D": d, "E": (base < 80).astype(int)}
    frame = tidy("t", {m: list(v) for m, v in answers.items()})
    accuracy = pd.Series({m: v.mean() for m, v in answers.items()})
    resolution = adjacent_from_items(frame, accuracy, SETTINGS, "s", "t")
    assert list(resolution.index) == ["A", "B", "C", "D", "E"]
    assert list(resolution["rank_group"]) == [1, 2, 2, 2, 3]
    assert list(resolution["rank_range"]) == ["1", "2-4", "2-4", "2-4", "5"]
    assert count_separable(resolution) == (2, 4, 4)
    # the cheapest wrong rule, "every different accuracy is a different rank", would give five groups
    assert resolution["rank_group"].nunique() < accuracy.nunique()


def test_interval_resolution_and_unmeasurable_entries():
    frame = pd.DataFrame(
        {
            "value": [0.9, 0.5, 0.48, 0.1, 0.05],
            "low": [0.85, 0.45, 0.43, 0.05, np.nan],
            "high": [0.95, 0.55, 0.53, 0.15, np.nan],
        },
        index=["A", "B", "C", "D", "E"],
    )
    resolution = adjacent_from_intervals(frame, "value", "low", "high")
    assert list(resolution["rank_range"]) == ["1", "2-3", "2-3", "4-5?", "4-5?"]
    assert count_separable(resolution) == (2, 3, 4)
    assert "not measurable" in resolution.loc["D", "reason"]


def test_scoreboard_ranks_pair_accuracy_and_use_intervals_for_macro_f1():
    answers = {"A": [1] * 90 + [0] * 10, "B": [1] * 40 + [0] * 60, "C": [1] * 39 + [0] * 61}
    items = tidy("t", answers, source="benchval")
    rows = []
    for model, correct in answers.items():
        value = float(np.mean(correct))
        rows.append({"model": model, "task": "t", "metric": "accuracy", "value": value, "ci_low": 0, "ci_high": 1})
        rows.append(
            {
                "model": model,
                "task": "t",
                "metric": "macro_f1",
                "value": value,
                "ci_low": value - 0.004,
                "ci_high": value + 0.004,
            }
        )
    table = scoreboard_ranks(pd.DataFrame(rows), items, SETTINGS)
    accuracy = table[table["metric"] == "accuracy"].set_index("model")
    assert list(accuracy["rank_range"]) == ["1", "2-3", "2-3"]  # B and C differ on one item
    assert set(accuracy["rank_method"].iloc[:2]) == {"paired bootstrap and exact McNemar"}
    macro = table[table["metric"] == "macro_f1"].set_index("model")
    assert list(macro["rank_range"]) == ["1", "2", "3"]  # intervals 0.008 wide do not overlap
    assert list(table["model"]) == [r["model"] for r in rows]  # the scoreboard's order is kept


def test_five_against_zero_discordant_items_are_not_separable():
    """The default run's false_beliefs (24 items): the percentile interval excludes 0, McNemar's exact p is
    0.0625; a pair the exact test does not separate stays in one tie group."""
    answers = {"A": [1] * 11 + [1] * 5 + [0] * 8, "B": [1] * 11 + [0] * 5 + [0] * 8}
    row = task_comparison(tidy("t", answers), "s", "t", "A", "B", SETTINGS)
    assert row["ci_low"] > 0 and row["p_mcnemar_exact"] == pytest.approx(0.0625)
    accuracy = pd.Series({m: np.mean(v) for m, v in answers.items()})
    assert list(adjacent_from_items(tidy("t", answers), accuracy, SETTINGS, "s", "t")["rank_range"]) == ["1-2"] * 2
