import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

from benchval.analysis import fdr
from benchval.analysis.settings import settings_from_config


def test_bh_matches_statsmodels():
    p = np.random.default_rng(0).random(40) ** 3
    np.testing.assert_allclose(fdr.benjamini_hochberg(p), multipletests(p, method="fdr_bh")[1], rtol=1e-12)


def test_bh_hand_case():
    # sorted p = .01 .02 .03 .04 (m=4): p*m/rank = .04 .04 .04 .04
    np.testing.assert_allclose(fdr.benjamini_hochberg([0.04, 0.01, 0.03, 0.02]), [0.04] * 4)
    # .01 .04 .05: .03, .06, .05 -> running minimum from the top: .03 .05 .05
    np.testing.assert_allclose(fdr.benjamini_hochberg([0.01, 0.04, 0.05]), [0.03, 0.05, 0.05])


def test_families_split_by_metric_and_missing_p_excluded():
    settings = settings_from_config(
        {"fdr": {"families": [{"name": "corr", "tests": ["cs_downstream_spearman", "partial_spearman"]}]}}
    )
    tests = pd.DataFrame(
        {
            "test_id": [f"t:{i}" for i in range(6)],
            "test_kind": [
                "cs_downstream_spearman",
                "partial_spearman",
                "cs_downstream_spearman",
                "cs_downstream_spearman",
                "axis_test",
                "partial_spearman",
            ],
            "metric": ["accuracy", "accuracy", "accuracy", "macro_f1", "accuracy", "macro_f1"],
            "p": [0.01, 0.04, np.nan, 0.02, 0.001, 0.5],
        }
    )
    out = fdr.adjust(tests, settings)
    np.testing.assert_allclose(out.loc[[0, 1], "p_fdr"], stats.false_discovery_control([0.01, 0.04]))
    np.testing.assert_allclose(out.loc[[3, 5], "p_fdr"], stats.false_discovery_control([0.02, 0.5]))
    assert np.isnan(out.at[2, "p_fdr"]) and out.at[2, "fdr_note"] == "p-value undefined"
    assert np.isnan(out.at[4, "p_fdr"]) and "no FDR family" in out.at[4, "fdr_note"]
    assert out.loc[[0, 1, 3], "family_size"].tolist() == [2, 2, 2]


def test_pooled_family_over_metrics():
    settings = settings_from_config(
        {"fdr": {"families": [{"name": "all", "tests": ["axis_test"], "per_metric": False}]}}
    )
    tests = pd.DataFrame(
        {"test_id": ["a:0", "a:1"], "test_kind": "axis_test", "metric": ["accuracy", "macro_f1"], "p": [0.01, 0.03]}
    )
    np.testing.assert_allclose(fdr.adjust(tests, settings)["p_fdr"], [0.02, 0.03])
