"""The report's sentences follow the intervals, not the point estimates."""

from __future__ import annotations

import pandas as pd

from benchval.items.report import _k_sentence, difference_verdict


def test_verdicts():
    assert difference_verdict(-0.3, -0.01) == "lower"
    assert difference_verdict(0.01, 0.3) == "higher"
    assert difference_verdict(-0.2, 0.1) == "not distinguishable"
    assert difference_verdict(float("nan"), 0.1) == "undefined"


def test_sentence_reads_the_interval():
    row = pd.Series({"rho": 0.9, "ci_low": 0.7, "ci_high": 0.95, "diff_vs_full": 0.05, "diff_ci_low": -0.02,
                     "diff_ci_high": 0.2, "mae_vs_full": 0.1})  # fmt: skip
    text = _k_sentence("criterion", row, 0.85)
    assert "not distinguishable" in text and "beats" not in text  # a higher point estimate is not a win
    assert "beats" in _k_sentence(
        "criterion", row.assign(diff_ci_low=0.01) if False else row.replace(-0.02, 0.01), 0.85
    )
