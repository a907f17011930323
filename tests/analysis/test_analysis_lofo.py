import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.impute import SimpleImputer
from sklearn.linear_model import Ridge
from sklearn.model_selection import LeaveOneGroupOut, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from benchval.analysis.lofo import bootstrap_delta_r2, family_balanced_errors, lofo_table, predict_out_of_family
from benchval.analysis.settings import settings_from_config


class CompositeFeatures(BaseEstimator, TransformerMixin):
    """Reference: composites with training-fold statistics, as an sklearn transformer.

    A composite is the mean of the available z-scores of its tasks, each task standardised with the
    training fold's mean and sample SD (ddof=1, docs/analysis.md). sklearn's StandardScaler (which
    ignores NaN when fitting) gives the mean and the population SD; z * sqrt((n - 1) / n) turns its
    z-scores into sample-SD ones, n being the task's non-missing training values.
    """

    def __init__(self, groups=()):
        self.groups = groups

    def fit(self, X, y=None):
        X = np.asarray(X, float)
        self.scalers_ = [StandardScaler().fit(X[:, g]) for g in self.groups]
        return self

    def transform(self, X):
        X = np.asarray(X, float)
        composites = []
        for scaler, g in zip(self.scalers_, self.groups):  # population SD, as the composite (docs/analysis.md)
            composites.append(np.nanmean(scaler.transform(X[:, g]), axis=1))
        return np.column_stack([X[:, 0], *composites])


def sklearn_reference(features, y, families, groups, alpha):
    pipeline = make_pipeline(
        CompositeFeatures(groups),
        SimpleImputer(strategy="mean", keep_empty_features=True),
        StandardScaler(),
        Ridge(alpha=alpha),
    )
    return cross_val_predict(
        pipeline, features.to_numpy(float), y.to_numpy(float), groups=families.to_numpy(), cv=LeaveOneGroupOut()
    )


def test_matches_sklearn_pipeline_with_missing_predictors(study):
    wide = study.wide("accuracy").copy()
    wide.iloc[[1, 7, 12], wide.columns.get_loc("hellaswag")] = np.nan
    wide.iloc[[1], wide.columns.get_loc("winogrande")] = np.nan  # winogrande and hellaswag missing for model 1
    features = pd.DataFrame({"log_size": np.log(study.models.size_b)}, index=wide.index).join(
        wide[["blimp", "mmlu_redux", "gpqa_diamond", "winogrande", "hellaswag", "siqa", "piqa"]]
    )
    groups = [["blimp", "mmlu_redux", "gpqa_diamond"], ["winogrande", "hellaswag", "siqa", "piqa"]]
    families = study.models.family
    ours = predict_out_of_family(features, wide.trip, families, groups, alpha=1.0)
    position = {c: i for i, c in enumerate(features.columns)}
    reference = sklearn_reference(features, wide.trip, families, [[position[c] for c in g] for g in groups], 1.0)
    np.testing.assert_allclose(ours, reference, rtol=1e-10, atol=1e-12)


def test_held_out_family_is_not_used_for_fitting(study):
    """No leak: a held-out model's prediction ignores its family's targets and its family mates' predictors."""
    wide = study.wide("accuracy")
    features = pd.DataFrame({"log_size": np.log(study.models.size_b)}, index=wide.index).join(wide[["blimp", "siqa"]])
    families = study.models.family
    groups = [["blimp"], ["siqa"]]
    base = predict_out_of_family(features, wide.cei, families, groups, 1.0)
    opt = (families == "OPT").to_numpy()
    y_changed = wide.cei.copy()
    y_changed[opt] = 0.0
    np.testing.assert_allclose(predict_out_of_family(features, y_changed, families, groups, 1.0)[opt], base[opt])
    changed = features.copy()
    first_opt = features.index[opt][0]
    changed.loc[first_opt, "siqa"] += 5.0  # would shift composite statistics if test rows were used
    moved = predict_out_of_family(changed, wide.cei, families, groups, 1.0)
    mates = opt & (features.index != first_opt)
    np.testing.assert_allclose(moved[mates], base[mates])
    assert moved[features.index == first_opt] != pytest.approx(base[features.index == first_opt])


def test_family_balanced_errors_hand_case():
    y = np.array([0.0, 0.0, 0.0, 0.0])
    prediction = np.array([1.0, 1.0, 1.0, 3.0])
    mae, rmse = family_balanced_errors(y, prediction, np.array(["a", "a", "a", "b"]))
    assert mae == pytest.approx((1 + 3) / 2)  # not the pooled 1.5
    assert rmse == pytest.approx((1 + 3) / 2)


def test_lofo_table_shape_and_delta(study):
    settings = settings_from_config({"seed": 12345, "n_bootstrap": 100})
    scores, predictions = lofo_table(study, "macro_f1", study.wide("macro_f1"), settings)
    assert len(scores) == 7 * 4  # TimeDial has no macro-F1
    row = scores[(scores.downstream == "trip")].set_index("predictor_set")
    assert row.at["controls+both", "delta_r2"] == pytest.approx(
        row.at["controls+both", "r2"] - row.at["controls", "r2"]
    )
    assert set(predictions.model) == set(study.models.index)
    from sklearn.metrics import r2_score

    subset = predictions[(predictions.downstream == "trip") & (predictions.predictor_set == "controls")]
    assert row.at["controls", "r2"] == pytest.approx(r2_score(subset.observed, subset.predicted))


def test_bootstrap_delta_r2_recomputes_sklearn_r2_on_each_resample():
    from sklearn.metrics import r2_score

    rng = np.random.default_rng(1)
    y, a, b = rng.normal(size=12), rng.normal(size=12), rng.normal(size=12)
    indices = np.vstack([np.arange(12), rng.integers(0, 12, size=(4, 12)), np.zeros((1, 12), int)])
    got = bootstrap_delta_r2(y, a, b, indices)
    for row, value in zip(indices[:-1], got[:-1]):
        assert value == pytest.approx(r2_score(y[row], a[row]) - r2_score(y[row], b[row]), abs=1e-12)
    assert np.isnan(got[-1])  # one model drawn 12 times: constant scores, undefined


def test_delta_r2_interval_brackets_the_estimate(study):
    scores, _ = lofo_table(
        study, "accuracy", study.wide("accuracy"), settings_from_config({"n_bootstrap": 300, "seed": 2})
    )
    gains = scores[scores.predictor_set != "controls"].dropna(subset=["delta_r2"])
    assert len(gains) and (gains.delta_r2_ci_low <= gains.delta_r2_ci_high).all()
    assert ((gains.delta_r2_ci_low <= gains.delta_r2) & (gains.delta_r2 <= gains.delta_r2_ci_high)).mean() > 0.8
    assert (gains.delta_r2_n_boot_valid == 300).all()
    assert scores.loc[scores.predictor_set == "controls", "delta_r2_ci_low"].isna().all()


def test_too_few_families_is_missing(study):
    settings = settings_from_config({"seed": 12345, "min_families_lofo": 7})
    scores, _ = lofo_table(study, "accuracy", study.wide("accuracy"), settings)
    assert scores["r2"].isna().all() and scores["note"].str.contains("min_families_lofo=7").all()


def test_models_without_a_size_are_left_out_and_counted(study_files):
    """Data contract: a missing size_b is allowed; LOFO (log size is a feature) leaves those models out."""
    from benchval.analysis.study_table import load_study

    scores = pd.read_csv(study_files[0])
    unsized = sorted(scores["model"].unique())[:2]
    scores.loc[scores["model"].isin(unsized), "size_b"] = np.nan
    scores.to_csv(study_files[0], index=False)
    study = load_study(*study_files)
    settings = settings_from_config({"seed": 1, "n_bootstrap": 100})
    table, predictions = lofo_table(study, "accuracy", study.wide("accuracy"), settings)
    assert not set(unsized) & set(predictions["model"])
    assert table["note"].str.contains("2 model\\(s\\) without a size left out").all()
