"""Chance levels (exact, hand-computed, simulated with sklearn) and the vectorised item bootstrap."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score

from benchval.analysis.chance import chance_accuracy, chance_macro_f1, macro_f1_of_guesses, poisson_binomial_pmf
from benchval.evaluation.item_bootstrap import bootstrap_metric, item_rng, resample_counts


def macro_f1_rows(labels, guesses):
    """sklearn's macro-F1 of every row of ``guesses`` (G x n), in numpy (checked against sklearn below)."""
    classes = np.arange(max(labels.max(), guesses.max()) + 1)
    truth = labels[None, :, None] == classes
    guessed = guesses[:, :, None] == classes
    tp = (truth & guessed).sum(axis=1)
    denominator = truth.sum(axis=1) + guessed.sum(axis=1)
    f1 = np.divide(2.0 * tp, denominator, out=np.zeros(tp.shape), where=denominator > 0)
    return f1.sum(axis=1) / (denominator > 0).sum(axis=1)


def test_chance_accuracy_is_mean_of_one_over_options():
    assert chance_accuracy(np.array([2, 4, 4])) == pytest.approx((1 / 2 + 1 / 4 + 1 / 4) / 3)


def test_chance_macro_f1_hand_computed_two_items():
    # labels (0, 1), two options each; the 4 equally likely guesses give macro-F1
    # (0,0): (2/3 + 0)/2, (1,1): 1/3, (0,1): 1, (1,0): 0  ->  mean 5/12
    value, bound = chance_macro_f1(np.array([0, 1]), np.array([2, 2]))
    assert value == pytest.approx(5 / 12, abs=1e-12)
    assert bound == 0.0


def test_chance_macro_f1_enumerated_exactly_with_sklearn():
    """Every guess vector of a small task with varying option counts, weighted by its probability."""
    labels, n_options = np.array([0, 1, 2, 0, 1]), np.array([3, 2, 3, 4, 2])
    grids = np.meshgrid(*[np.arange(n) for n in n_options], indexing="ij")
    guesses = np.stack([g.ravel() for g in grids], axis=1)
    expected = np.mean([f1_score(labels, g, average="macro", zero_division=0) for g in guesses])
    value, bound = chance_macro_f1(labels, n_options)
    # class 3 (only item 4 has it) is never a label: the bound covers the difference
    assert bound == pytest.approx(0.75)
    assert abs(value - expected) <= bound
    exact_labels = np.array([0, 1, 2, 0, 1, 2])
    exact_options = np.array([3, 3, 3, 3, 3, 3])
    guesses = np.stack([g.ravel() for g in np.meshgrid(*[np.arange(3)] * 6, indexing="ij")], axis=1)
    scores = macro_f1_rows(exact_labels, guesses)
    for g, score in zip(guesses[::97], scores[::97]):
        assert score == pytest.approx(f1_score(exact_labels, g, average="macro", zero_division=0), abs=1e-12)
    enumerated = scores.mean()
    assert chance_macro_f1(exact_labels, exact_options) == (pytest.approx(enumerated, abs=1e-12), 0.0)


def test_chance_macro_f1_matches_simulation():
    rng = np.random.default_rng(5)
    n_options = rng.choice([2, 3, 4], size=40)
    labels = np.array([rng.integers(0, n) for n in n_options])
    labels[:4] = [0, 1, 2, 3]
    n_options[:4] = 4
    value, bound = chance_macro_f1(labels, n_options)
    assert bound < 1e-6
    guesses = rng.integers(0, n_options, size=(20000, len(n_options)))
    draws = macro_f1_rows(labels, guesses)
    for g, score in zip(guesses[:5], draws[:5]):
        assert score == pytest.approx(f1_score(labels, g, average="macro", zero_division=0), abs=1e-12)
    assert abs(draws.mean() - value) < 4 * draws.std(ddof=1) / np.sqrt(len(draws))
    # below the large-sample approximation 1/K for this small task? at least clearly not accuracy
    assert value != pytest.approx(chance_accuracy(n_options), abs=1e-3)


def test_poisson_binomial_pmf_is_a_distribution_with_the_right_mean():
    p = np.array([0.5, 0.25, 0.25, 1 / 3])
    pmf = poisson_binomial_pmf(p)
    assert pmf.sum() == pytest.approx(1.0)
    assert np.dot(np.arange(len(pmf)), pmf) == pytest.approx(p.sum())


def test_resample_counts_rows_sum_to_n():
    counts = resample_counts(np.random.default_rng(0), 7, 50)
    assert counts.shape == (50, 7) and (counts.sum(axis=1) == 7).all()


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
def test_bootstrap_replicates_equal_sklearn_on_the_same_resamples(metric):
    rng = np.random.default_rng(3)
    labels, predictions = rng.integers(0, 4, 30), rng.integers(0, 4, 30)
    predictions[:10] = labels[:10]
    replicates = bootstrap_metric(metric, labels, predictions, item_rng(11, "task"), 25)
    draws = item_rng(11, "task").integers(0, 30, size=(25, 30))  # the same resamples, drawn the same way
    reference = (
        accuracy_score if metric == "accuracy" else (lambda y, p: f1_score(y, p, average="macro", zero_division=0))
    )
    expected = [reference(labels[row], predictions[row]) for row in draws]
    np.testing.assert_allclose(replicates, expected, atol=1e-12)


def test_bootstrap_is_seeded():
    labels, predictions = np.array([0, 1, 1, 0, 2]), np.array([0, 1, 0, 0, 1])
    a = bootstrap_metric("macro_f1", labels, predictions, item_rng(1, "x"), 100)
    b = bootstrap_metric("macro_f1", labels, predictions, item_rng(1, "x"), 100)
    c = bootstrap_metric("macro_f1", labels, predictions, item_rng(2, "x"), 100)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_loose_closed_form_falls_back_to_seeded_simulation():
    # 6 items, 8 options, labels cover 3 positions: the closed form's bound is useless (1.0)
    labels, n_options = np.array([0, 1, 2, 0, 1, 2]), np.full(6, 8)
    assert chance_macro_f1(labels, n_options)[1] == 1.0
    value, tolerance = chance_macro_f1(labels, n_options, np.random.default_rng(0))
    again = chance_macro_f1(labels, n_options, np.random.default_rng(0))
    assert again == (value, tolerance) and 0 < tolerance < 0.01
    guesses = np.stack([g.ravel() for g in np.meshgrid(*[np.arange(8)] * 6, indexing="ij")], axis=1)
    exact = macro_f1_rows(labels, guesses).mean()  # all 8^6 guess vectors
    assert abs(exact - value) < tolerance
    np.testing.assert_allclose(macro_f1_of_guesses(labels, guesses[:500]), macro_f1_rows(labels, guesses[:500]))


def test_chance_method_says_which_computation_gave_the_value():
    from benchval.analysis.scoreboard import chance_method

    assert chance_method("accuracy", np.array([0, 1]), np.array([2, 8])) == "exact"
    assert chance_method("macro_f1", np.array([0, 1]), np.array([2, 2])) == "exact"
    assert chance_method("macro_f1", np.array([0, 1, 2, 0, 1, 2]), np.full(6, 8)) == "simulated"
    # 40 three-option items labelled 0 or 1: position 2 is never a label, unguessed with P = (2/3)^40 < 1e-6
    labels = np.arange(40) % 2
    assert chance_method("macro_f1", labels, np.full(40, 3)) == "closed form, bounded"
