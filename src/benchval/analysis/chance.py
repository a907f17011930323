"""Chance levels of a uniform random guesser on a multiple-choice task.

The guesser picks each item's option uniformly and independently (item i has n_i options; the
option index is the class, as in :mod:`benchval.evaluation.metrics`).

* Accuracy: E[acc] = mean_i 1 / n_i (exact).
* Macro-F1 (sklearn's definition: mean F1 over the classes seen as label or prediction). Write
  n_k for the number of items labelled k, T_k for the random true positives of class k (a sum of
  Bernoulli(1/n_i) over the items labelled k) and F_k for its false positives (a sum of
  Bernoulli(1/n_i) over the items not labelled k that have an option k). T_k and F_k are
  independent Poisson-binomial variables and F1_k = 2 T_k / (n_k + T_k + F_k), so

      E[F1_k] = sum_j conv(a, q)[j] / (n_k + j),   a(t) = 2 t P(T_k = t),  q = pmf of F_k,

  exact up to floating point. When every option index that can be guessed is also some item's
  label (the usual case), the set of classes is fixed and E[macro-F1] = mean_k E[F1_k] exactly.
  Otherwise a class U that is never a label scores F1 = 0 and counts only if it is guessed at
  least once; the value returned uses the full class count and its error is bounded by
  P(some such class is never guessed) (returned as ``bound``; below 1e-12 for 2-option tasks of
  40+ items). When that bound exceeds ``SIMULATION_ABOVE`` (small tasks with many options), the
  expectation is instead estimated by ``SIMULATION_DRAWS`` seeded simulated guessers and the bound
  returned is 3 standard errors of that mean. Checked by enumeration and simulation with sklearn
  in tests/test_chance_and_item_bootstrap.py.
"""

from __future__ import annotations

import numpy as np
from scipy import signal, stats

#: bound on the closed form's error above which the chance macro-F1 is simulated instead
SIMULATION_ABOVE = 1e-6
#: simulated guessers behind a simulated chance macro-F1 (its standard error is ~0.1/sqrt(draws))
SIMULATION_DRAWS = 20000


def chance_accuracy(n_options: np.ndarray) -> float:
    """Expected accuracy of uniform guessing: the mean over items of 1 / n_options."""
    n_options = np.asarray(n_options, dtype=float)
    return float(np.mean(1.0 / n_options)) if len(n_options) else float("nan")


def poisson_binomial_pmf(probabilities: np.ndarray) -> np.ndarray:
    """pmf (index = count) of a sum of independent Bernoulli(p_i), grouped by equal p (binomials)."""
    pmf = np.ones(1)
    values, counts = np.unique(np.asarray(probabilities, dtype=float), return_counts=True)
    for p, count in zip(values, counts):
        pmf = np.convolve(pmf, stats.binom.pmf(np.arange(count + 1), count, p))
    return pmf


def expected_class_f1(labels: np.ndarray, n_options: np.ndarray, k: int) -> float:
    """E[F1 of class k] under uniform guessing (exact)."""
    labelled = labels == k
    n_k = int(labelled.sum())
    true_positives = poisson_binomial_pmf(1.0 / n_options[labelled])
    false_positives = poisson_binomial_pmf(1.0 / n_options[~labelled & (n_options > k)])
    if n_k == 0:
        return 0.0
    weighted = 2.0 * np.arange(len(true_positives)) * true_positives
    joint = np.clip(signal.convolve(weighted, false_positives), 0.0, None)
    return float(np.sum(joint / (n_k + np.arange(len(joint)))))


def macro_f1_of_guesses(labels: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """sklearn's macro-F1 (zero_division=0) of every row of ``guesses`` (G x n) against ``labels``."""
    classes = np.arange(max(int(labels.max()), int(guesses.max())) + 1)
    truth = labels[None, :, None] == classes
    guessed = guesses[:, :, None] == classes
    denominator = truth.sum(axis=1) + guessed.sum(axis=1)
    f1 = np.divide(
        2.0 * (truth & guessed).sum(axis=1), denominator, out=np.zeros(denominator.shape), where=denominator > 0
    )
    return f1.sum(axis=1) / (denominator > 0).sum(axis=1)


def simulated_macro_f1(
    labels: np.ndarray, n_options: np.ndarray, rng: np.random.Generator, draws: int = SIMULATION_DRAWS
) -> tuple[float, float]:
    """(mean macro-F1 of ``draws`` simulated uniform guessers, 3 standard errors of that mean)."""
    scores = np.concatenate(
        [
            macro_f1_of_guesses(labels, rng.integers(0, n_options, size=(min(2000, draws - start), len(labels))))
            for start in range(0, draws, 2000)
        ]
    )
    return float(scores.mean()), float(3.0 * scores.std(ddof=1) / np.sqrt(len(scores)))


def chance_macro_f1_method(labels: np.ndarray, n_options: np.ndarray) -> str:
    """How :func:`chance_macro_f1` (given an ``rng``) computes the task's value: ``exact`` (every guessable
    option index is a label), ``closed form, bounded`` (error below ``SIMULATION_ABOVE``) or
    ``simulated`` (the closed form's bound is looser: seeded simulated guessers)."""
    labels, n_options = np.asarray(labels, dtype=int), np.asarray(n_options, dtype=int)
    never_labelled = [k for k in range(int(n_options.max(initial=0))) if k not in set(labels.tolist())]
    if not never_labelled:
        return "exact"
    bound = float(min(1.0, sum(np.prod(1.0 - 1.0 / n_options[n_options > k]) for k in never_labelled)))
    return "simulated" if bound > SIMULATION_ABOVE else "closed form, bounded"


def chance_macro_f1(
    labels: np.ndarray, n_options: np.ndarray, rng: np.random.Generator | None = None
) -> tuple[float, float]:
    """(expected macro-F1 of uniform guessing, bound on its error; 0.0 when exact).

    With ``rng`` and a closed-form bound above ``SIMULATION_ABOVE``: the simulated value instead
    (bound = 3 standard errors).
    """
    labels, n_options = np.asarray(labels, dtype=int), np.asarray(n_options, dtype=int)
    if len(labels) == 0:
        return float("nan"), 0.0
    if np.any(labels >= n_options) or np.any(labels < 0):
        raise ValueError("every label must be an option index (0 <= label < n_options)")
    classes = np.arange(int(n_options.max()))
    label_classes = set(labels.tolist())
    expected = sum(expected_class_f1(labels, n_options, k) for k in classes if k in label_classes) / len(classes)
    never_labelled = [k for k in classes if k not in label_classes]
    bound = float(min(1.0, sum(np.prod(1.0 - 1.0 / n_options[n_options > k]) for k in never_labelled)))
    if bound > SIMULATION_ABOVE and rng is not None:
        return simulated_macro_f1(labels, n_options, rng)
    return float(expected), bound
