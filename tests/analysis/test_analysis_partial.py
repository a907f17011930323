import numpy as np
import pandas as pd
import pingouin
import pytest
from scipy import stats

from benchval.analysis.partial import partial_spearman, partial_table
from benchval.analysis.undefined import UndefinedStatistic


def test_equals_pingouin_when_covariates_are_affine_in_their_ranks():
    """pingouin ranks covariates too; both definitions agree for one-hot and rank-valued covariates."""
    rng = np.random.default_rng(4)
    n = 24
    family = np.repeat(["a", "b", "c"], 8)
    log_size = rng.permutation(n).astype(float) + 1.0  # already ranks: rank() leaves them unchanged
    composite = 3.0 * rng.permutation(n) - 7.0  # affine in its ranks
    x = log_size * 0.1 + rng.normal(size=n)
    y = x + rng.normal(size=n) + (family == "b")
    dummies = pd.get_dummies(family, drop_first=True, dtype=float)
    covariates = np.column_stack([log_size, dummies.to_numpy(), composite])
    r, p, df = partial_spearman(x, y, covariates)
    data = pd.DataFrame({"x": x, "y": y, "log_size": log_size, "composite": composite}).join(dummies)
    reference = pingouin.partial_corr(data, x="x", y="y", covar=["log_size", "b", "c", "composite"], method="spearman")
    assert r == pytest.approx(reference["r"].iloc[0], abs=1e-10)
    assert p == pytest.approx(reference["p_val"].iloc[0], rel=1e-8)
    assert df == n - 2 - 4


def test_differs_from_pingouin_when_covariate_is_not_rank_like():
    """Documented difference: we residualise on raw log size, pingouin on its ranks."""
    rng = np.random.default_rng(5)
    n = 20
    log_size = np.exp(rng.normal(size=n) * 2)
    x = np.log(log_size) + rng.normal(size=n) * 0.3
    y = np.log(log_size) + rng.normal(size=n) * 0.3
    r, _, _ = partial_spearman(x, y, log_size[:, None])
    reference = pingouin.partial_corr(
        pd.DataFrame({"x": x, "y": y, "s": log_size}), x="x", y="y", covar="s", method="spearman"
    )["r"].iloc[0]
    assert abs(r - reference) > 1e-3


def test_no_covariates_reduces_to_spearman():
    rng = np.random.default_rng(6)
    x, y = rng.normal(size=15), rng.normal(size=15)
    r, p, df = partial_spearman(x, y, np.empty((15, 0)))
    reference = stats.spearmanr(x, y)
    assert r == pytest.approx(reference.statistic) and p == pytest.approx(reference.pvalue) and df == 13


def test_hand_computed_residual_correlation():
    # ranks x = 1..4, y = (1, 3, 2, 4); covariate c = (0, 0, 1, 1) -> residuals of x: (-.5, .5, -.5, .5),
    # of y: (-1, 1, -1, 1) -> r = 1
    r, p, df = partial_spearman([1, 2, 3, 4], [10, 30, 20, 40], np.array([[0], [0], [1], [1]]))
    assert r == pytest.approx(1.0) and df == 1


def test_too_few_degrees_of_freedom_is_undefined():
    with pytest.raises(UndefinedStatistic, match="degrees of freedom"):
        partial_spearman([1, 2, 3, 4], [4, 3, 1, 2], np.arange(8).reshape(4, 2) ** 2)


def test_partial_table_paper_shape_and_df(study, settings):
    table = partial_table(study, "accuracy", study.wide("accuracy"), settings)
    assert len(table) == 8 * 8
    # 23 models, covariates: log size + 5 family dummies + control composite = 7 -> df = 14
    assert set(table["df"]) == {14}
    assert table["rho_partial"].between(-1, 1).all()


def test_partial_table_leaves_models_without_a_size_out_and_counts_them(study_files, settings):
    import pandas as pd

    from benchval.analysis.study_table import load_study

    scores = pd.read_csv(study_files[0])
    scores.loc[scores["model"] == sorted(scores["model"].unique())[0], "size_b"] = np.nan
    scores.to_csv(study_files[0], index=False)
    study = load_study(*study_files)
    table = partial_table(study, "accuracy", study.wide("accuracy"), settings)
    assert set(table["n_models"]) == {22}
    assert table["note"].str.contains("1 model\\(s\\) without a size or control score left out").all()
