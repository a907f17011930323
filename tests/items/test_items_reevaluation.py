"""Re-evaluation noise of the open_llm leaderboards against a case computed by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchval.items import reevaluation

SOURCE = "benchmarks_old/board.csv"
CELLS = pd.DataFrame(
    {
        "source": SOURCE,
        "leaderboard": "board",
        "line": [2, 3, 4, 5],
        "raw_name": ["A", "B", "C", "D"],
        "column": "score",
        "value": [10.0, 20.0, 30.0, 40.0],
        "canonical_id": ["a", "b", "c", "d"],
    }
)
DUPLICATES = pd.DataFrame(
    {
        "canonical_id": ["a", "b", "c"],
        "column": "score",
        "source": SOURCE,
        "raw_names": ["A", "B", "C | C-old"],
        "lines": ["2;6", "3;7;8", "4;9"],
        "values": ["10;12", "20;18;22", "30;50"],
        "rule": "atlas.duplicates: first",
    }
)


def _table(cells=CELLS, duplicates=DUPLICATES, n_boot=200):
    return reevaluation.reevaluation_snr(cells, duplicates, np.random.default_rng(1), n_boot, 0.9, ("board",))


def test_reevaluation_snr_by_hand():
    """Signal: scores 10, 20, 30, 40 -> sd sqrt(500 / 3). Noise: a (10, 12): 2 squared deviation, 1 dof;
    b (20, 18, 22): 8, 2 dof -> sqrt(10 / 3). c's listings carry two raw names: left out, named.
    SNR = sqrt(500 / 10) = sqrt(50)."""
    row = _table().iloc[0]
    assert row["signal"] == pytest.approx(np.sqrt(500 / 3))
    assert row["noise_reevaluation"] == pytest.approx(np.sqrt(10 / 3))
    assert row["snr_reevaluation"] == pytest.approx(np.sqrt(50))
    assert (row["n_models"], row["n_models_reevaluated"], row["n_evaluations"]) == (4, 2, 5)
    assert (row["n_excluded"], row["excluded"]) == (1, "c")
    assert row["snr_ci_low"] <= row["snr_reevaluation"] <= row["snr_ci_high"]
    assert row["source"] == f"re-evaluation: models listed again in {SOURCE}"


def test_resamples_weigh_models_like_duplicated_models():
    """A resample's weights give the SNR of the model list with each model repeated by its count."""
    scores = CELLS.set_index("canonical_id")["value"]
    listings, _ = reevaluation.reevaluations(DUPLICATES, "score")
    samples = reevaluation._resampled_snr(scores, listings, np.random.default_rng(3), 5)
    counts = np.random.default_rng(3).multinomial(4, np.full(4, 0.25), size=5)
    for sample, count in zip(samples, counts):
        drawn = np.repeat(scores.index.to_numpy(), count)
        noise = reevaluation.pooled_within_sd([listings[m] for m in drawn if m in listings])
        expected = scores[drawn].std(ddof=1) / noise if noise > 0 else np.nan
        assert sample == pytest.approx(expected, nan_ok=True)


def test_rejects_a_reevaluated_model_missing_from_the_main_table():
    with pytest.raises(ValueError, match=r"score: re-evaluated models \['b'\] are not in the main table"):
        _table(cells=CELLS[CELLS["canonical_id"] != "b"])


def test_rejects_an_unknown_leaderboard_and_unresolved_duplicates():
    with pytest.raises(ValueError, match="leaderboard 'board' is not in cells.csv"):
        _table(cells=CELLS.assign(leaderboard="other"))
    with pytest.raises(ValueError, match="several scores in cells.csv"):
        _table(cells=pd.concat([CELLS, CELLS.iloc[[0]]]))


def test_no_reevaluated_model_gives_missing_noise_not_zero():
    row = _table(duplicates=DUPLICATES.iloc[[2]]).iloc[0]
    assert np.isnan(row["noise_reevaluation"]) and np.isnan(row["snr_reevaluation"])
    assert np.isnan(row["snr_ci_low"]) and row["n_models_reevaluated"] == 0


def test_report_section_escapes_untrusted_names():
    from benchval.items.report import reevaluation_section

    table = _table(cells=CELLS.assign(column="a|b\nc"), duplicates=DUPLICATES.assign(column="a|b\nc"))
    section = reevaluation_section(table)
    row = section.splitlines()[-1]
    assert "| board | a\\|b c | 4 | 12.91 | 2 (5) | 1.83 | 7.1 [" in row
    assert row.count(" | ") == 8  # nine cells: the name's pipe does not open a column
