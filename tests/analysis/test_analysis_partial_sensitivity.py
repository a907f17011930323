"""The partial-Spearman sensitivity table: the paper's convention, ranked covariates (pingouin), size+family."""

import numpy as np
import pandas as pd
import pingouin
import pytest

from benchval.analysis.partial import partial_table
from benchval.analysis.partial_sensitivity import CONVENTIONS, pair_rows, sensitivity_table


def test_ranked_covariates_equal_pingouin_and_differ_from_the_paper_when_size_is_skewed():
    rng = np.random.default_rng(5)
    n = 20
    size = np.exp(rng.normal(size=n) * 2)
    family = np.repeat(["a", "b"], 10)
    x = np.log(size) + rng.normal(size=n) * 0.3
    y = np.log(size) + rng.normal(size=n) * 0.3 + (family == "b")
    covariates = pd.DataFrame(
        {"log_size": size, "family_b": (family == "b").astype(float), "control_composite": rng.normal(size=n) ** 3}
    )
    rows = {r["convention"]: r for r in pair_rows(x, y, covariates, {"benchmark": "x"}, alpha=0.05)}
    data = covariates.assign(x=x, y=y)
    reference = pingouin.partial_corr(data, x="x", y="y", covar=list(covariates.columns), method="spearman")
    assert rows["ranked_covariates"]["rho_partial"] == pytest.approx(reference["r"].iloc[0], abs=1e-10)
    assert rows["ranked_covariates"]["p"] == pytest.approx(reference["p_val"].iloc[0], rel=1e-8)
    assert abs(rows["paper"]["rho_partial"] - rows["ranked_covariates"]["rho_partial"]) > 1e-3
    two = pingouin.partial_corr(
        data.assign(log_size=np.log(size)), x="x", y="y", covar=["log_size", "family_b"], method="spearman"
    )
    assert rows["size_family_only"]["covariates"] == "log_size + family_b"
    assert rows["size_family_only"]["df"] == n - 2 - 2
    assert rows["paper"]["same_conclusion_as_paper"] is True
    # log(size) is monotone in size: ranking it changes nothing, so size+family equals pingouin on log size
    ranked_two = pair_rows(x, y, covariates[["log_size", "family_b"]], {}, 0.05)[1]
    assert ranked_two["rho_partial"] == pytest.approx(two["r"].iloc[0], abs=1e-10)


def test_paper_rows_reproduce_partial_spearman_table(study, settings):
    wide = study.wide("accuracy")
    table = sensitivity_table(study, "accuracy", wide, settings)
    assert set(table["convention"]) == set(CONVENTIONS)
    paper = table[table["convention"] == "paper"].set_index(["benchmark", "downstream"])
    reference = partial_table(study, "accuracy", wide, settings).set_index(["benchmark", "downstream"])
    pd.testing.assert_series_equal(paper["rho_partial"], reference["rho_partial"], check_names=False)
    per_convention = [rows["n_models"].tolist() for _, rows in table.groupby("convention")]
    assert all(counts == per_convention[0] for counts in per_convention)  # same models in every convention
    defined = table.dropna(subset=["rho_partial"])
    assert defined["same_conclusion_as_paper"].notna().all()
