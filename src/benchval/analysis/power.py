"""Power planning: the smallest effects a study's design detects at the target power, and the models
needed for a named effect (docs/analysis.md, "Power planning"). Seeded simulation from a stated
generative model; the decision rules are the study's own.

Generative model (one simulated study; every parameter is an argument, the defaults are config):

* ``n_models`` models in ``n_families`` families of (as nearly as possible) equal size.
* Each model has latent abilities theta on the tasks involved, a family part and a model part:
  theta = sqrt(family_share) u_family + sqrt(1 - family_share) e_model, with u and e drawn from the
  same multivariate normal (unit variances, correlation matrix R), so R is the correlation across
  models.
* A task's observed score is a proportion: Binomial(n_items, p) / n_items with p = Phi(spread theta)
  (``n_items`` None: p itself, no sampling error). Item noise attenuates every correlation, as the
  task's reliability says (benchval.analysis.reliability).

Effects and decision rules:

* ``rho``: R = [[1, rho], [rho, 1]] for a benchmark X and a downstream task Y; rejected when the
  Spearman t-test p (scipy's, n - 2 df) is below the per-test alpha.
* ``delta_rho`` (the paper's Eq. 2): latent original O, reworked W and task Y with corr(O, W) =
  ``rho_original_reworked``, corr(W, Y) = ``rho_reworked_downstream`` and corr(O, Y) that plus delta;
  rejected when the paired bootstrap p over models (as in benchval.analysis.revisions) is below alpha.
* ``lofo_gain``: Y = sqrt(g) theta_CS + sqrt(1 - g) noise, with two control predictors (log size and
  a control composite) that carry no signal; the gain is g, the population R^2 the CS composite adds.
  Decision rule: leave-one-family-out ridge (``ridge_alpha``, features standardised on the training
  families, unpenalised intercept) with and without the CS score, pooled out-of-family R^2; the gain is
  detected when its bootstrap over models (fits fixed, as in benchval.analysis.lofo) gives p < alpha
  with a positive estimate, i.e. its (1 - alpha) interval lies above 0.

FDR: with a share ``true_share`` of true effects among a family's tests, Benjamini-Hochberg at level
q rejects, asymptotically, the tests with p below q pi (1 - beta) / (1 - q (1 - pi)) at power 1 - beta
(Jung 2005, Bioinformatics 21:3097), the per-test alpha used for FDR-adjusted rows.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import stats

KINDS = ("rho", "delta_rho", "lofo_gain")
#: the effect grid searched (latent rho, delta-rho, R^2 gain)
GRID = {
    "rho": np.round(np.arange(0.01, 0.991, 0.01), 3),
    "delta_rho": np.round(np.arange(0.025, 0.951, 0.025), 3),
    "lofo_gain": np.round(np.arange(0.025, 0.951, 0.025), 3),
}
COLUMNS = [
    "kind",
    "downstream",
    "n_models",
    "n_families",
    "benchmark_items",
    "task_items",
    "adjustment",
    "alpha_per_test",
    "true_share",
    "smallest_effect",
    "power_at_effect",
    "n_sim",
    "n_boot",
    "note",
]


@dataclass(frozen=True)
class Design:
    n_models: int
    n_families: int
    benchmark_items: int | None
    task_items: int | None


@dataclass(frozen=True)
class Simulation:
    seed: int
    n_sim: int = 400
    n_boot: int = 400
    target: float = 0.8
    spread: float = 0.5
    family_share: float = 0.5
    rho_original_reworked: float = 0.8
    rho_reworked_downstream: float = 0.3
    ridge_alpha: float = 1.0
    #: the correlation of the rho test: the study's spearman; pearson only to check the simulation
    #: against the analytic Fisher-z power (tests)
    statistic: str = "spearman"


def fdr_alpha(alpha: float, true_share: float, target: float) -> float:
    """Per-test alpha at which BH at level ``alpha`` rejects when a share ``true_share`` of the tests are
    true effects detected with power ``target`` (Jung 2005)."""
    return alpha * true_share * target / (1.0 - alpha * (1.0 - true_share))


def families(design: Design) -> np.ndarray:
    return np.arange(design.n_models) % design.n_families


def latent(rng: np.random.Generator, design: Design, corr: np.ndarray, n_sim: int, family_share: float) -> np.ndarray:
    """(n_sim, n_models, k) latent abilities with correlation ``corr`` across models."""
    k = corr.shape[0]
    family_part = rng.multivariate_normal(np.zeros(k), corr, size=(n_sim, design.n_families))
    model_part = rng.multivariate_normal(np.zeros(k), corr, size=(n_sim, design.n_models))
    return np.sqrt(family_share) * family_part[:, families(design)] + np.sqrt(1 - family_share) * model_part


def observe(rng: np.random.Generator, theta: np.ndarray, n_items: int | None, spread: float) -> np.ndarray:
    """Observed proportions: Binomial(n_items, Phi(spread theta)) / n_items (the true p if n_items is None)."""
    p = stats.norm.cdf(spread * theta)
    return p if n_items is None else rng.binomial(int(n_items), p) / int(n_items)


def _ranked(values: np.ndarray) -> np.ndarray:
    """Average ranks along the last axis, centred and scaled to unit norm (constant rows -> NaN)."""
    ranks = stats.rankdata(values, axis=-1)
    ranks = ranks - ranks.mean(axis=-1, keepdims=True)
    norm = np.sqrt((ranks**2).sum(axis=-1, keepdims=True))
    with np.errstate(invalid="ignore", divide="ignore"):
        return ranks / norm


def spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman rho of x and y along the last axis (scipy.stats.spearmanr row by row)."""
    return (_ranked(x) * _ranked(y)).sum(axis=-1)


def pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r along the last axis."""
    x, y = x - x.mean(axis=-1, keepdims=True), y - y.mean(axis=-1, keepdims=True)
    return (x * y).sum(axis=-1) / np.sqrt((x**2).sum(axis=-1) * (y**2).sum(axis=-1))


def spearman_p(rho: np.ndarray, n: int) -> np.ndarray:
    """scipy's two-sided t-test p of a Spearman rho (or Pearson r: the same t-test) on n models."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = rho * np.sqrt((n - 2) / (1 - rho**2))
    return 2 * stats.t.sf(np.abs(t), n - 2)


def p_boot(samples: np.ndarray) -> np.ndarray:
    """The study's bootstrap p along the last axis: min(1, 2 (min(#<=0, #>=0) + 1) / (B + 1))."""
    below, above = (samples <= 0).sum(axis=-1), (samples >= 0).sum(axis=-1)
    return np.minimum(1.0, 2 * (np.minimum(below, above) + 1) / (samples.shape[-1] + 1))


def rho_decisions(effect: float, design: Design, sim: Simulation, rng: np.random.Generator) -> np.ndarray:
    """(p, estimate) of every simulated study for a latent correlation ``effect``."""
    theta = latent(rng, design, np.array([[1.0, effect], [effect, 1.0]]), sim.n_sim, sim.family_share)
    x = observe(rng, theta[..., 0], design.benchmark_items, sim.spread)
    y = observe(rng, theta[..., 1], design.task_items, sim.spread)
    if sim.statistic == "pearson":
        rho = pearson_rows(x, y)
    else:
        rho = spearman_rows(x, y)
    return np.column_stack([spearman_p(rho, design.n_models), rho])


def delta_rho_decisions(effect: float, design: Design, sim: Simulation, rng: np.random.Generator) -> np.ndarray:
    base, pair = sim.rho_reworked_downstream, sim.rho_original_reworked
    corr = np.array([[1.0, pair, base + effect], [pair, 1.0, base], [base + effect, base, 1.0]])
    if np.linalg.eigvalsh(corr).min() <= 0:
        return np.full((sim.n_sim, 2), np.nan)
    theta = latent(rng, design, corr, sim.n_sim, sim.family_share)
    items = (design.benchmark_items, design.benchmark_items, design.task_items)
    scores = np.stack([observe(rng, theta[..., j], items[j], sim.spread) for j in range(3)], axis=-1)
    point = spearman_rows(scores[..., 0], scores[..., 2]) - spearman_rows(scores[..., 1], scores[..., 2])
    index = rng.integers(0, design.n_models, size=(sim.n_boot, design.n_models))
    out = np.empty((sim.n_sim, 2))
    for start in range(0, sim.n_sim, 20):  # bounded memory: 20 studies x B x n x 3 at a time
        block = scores[start : start + 20][:, index]  # (s, B, n, 3)
        ranked = _ranked(np.moveaxis(block, -1, -2))  # (s, B, 3, n)
        diff = (ranked[..., 0, :] * ranked[..., 2, :]).sum(-1) - (ranked[..., 1, :] * ranked[..., 2, :]).sum(-1)
        out[start : start + 20, 0] = p_boot(np.where(np.isfinite(diff), diff, 0.0))
    out[:, 1] = point
    return out


def lofo_predictions(features: np.ndarray, y: np.ndarray, groups: np.ndarray, alpha: float) -> np.ndarray:
    """Out-of-family ridge predictions for every simulated study at once: features (S, n, k), y (S, n)."""
    prediction = np.empty_like(y)
    for family in np.unique(groups):
        train, test = groups != family, groups == family
        X, t = features[:, train], y[:, train]
        mean, sd = X.mean(axis=1, keepdims=True), X.std(axis=1, keepdims=True)
        sd = np.where(sd > 0, sd, 1.0)
        Z, y_mean = (X - mean) / sd, t.mean(axis=1, keepdims=True)
        gram = np.einsum("snk,snl->skl", Z, Z) + alpha * np.eye(Z.shape[-1])
        beta = np.linalg.solve(gram, np.einsum("snk,sn->sk", Z, t - y_mean)[..., None])[..., 0]
        prediction[:, test] = y_mean + np.einsum("snk,sk->sn", (features[:, test] - mean) / sd, beta)
    return prediction


def _r2(y: np.ndarray, prediction: np.ndarray) -> np.ndarray:
    ss = ((y - y.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 - ((y - prediction) ** 2).sum(axis=-1) / ss


def lofo_decisions(effect: float, design: Design, sim: Simulation, rng: np.random.Generator) -> np.ndarray:
    theta = latent(rng, design, np.eye(2), sim.n_sim, sim.family_share)
    target_theta = np.sqrt(effect) * theta[..., 0] + np.sqrt(1 - effect) * theta[..., 1]
    cs = observe(rng, theta[..., 0], design.benchmark_items, sim.spread)
    y = observe(rng, target_theta, design.task_items, sim.spread)
    controls = rng.normal(size=(sim.n_sim, design.n_models, 2))  # log size, control composite: no signal
    groups = families(design)
    full = lofo_predictions(np.concatenate([controls, cs[..., None]], axis=-1), y, groups, sim.ridge_alpha)
    base = lofo_predictions(controls, y, groups, sim.ridge_alpha)
    point = _r2(y, full) - _r2(y, base)
    index = rng.integers(0, design.n_models, size=(sim.n_boot, design.n_models))
    gains = _r2(y[:, index], full[:, index]) - _r2(y[:, index], base[:, index])  # (S, B)
    return np.column_stack([p_boot(np.where(np.isfinite(gains), gains, 0.0)), point])


DECISIONS = {"rho": rho_decisions, "delta_rho": delta_rho_decisions, "lofo_gain": lofo_decisions}


def power(kind: str, effect: float, design: Design, sim: Simulation, alpha: float) -> float:
    """Share of simulated studies in which the study's decision rule detects ``effect`` at ``alpha``.
    Every effect and design uses the same seed (common random numbers: power is smooth in the effect)."""
    rng = np.random.default_rng([sim.seed, KINDS.index(kind)])
    decided = DECISIONS[kind](effect, design, sim, rng)
    detected = decided[:, 0] < alpha
    if kind != "rho":
        detected &= decided[:, 1] > 0  # a gain / a difference in the stated direction
    return float(np.mean(detected)) if np.isfinite(decided[:, 0]).all() else np.nan


def feasible_grid(kind: str, sim: Simulation) -> np.ndarray:
    """The effect grid less the delta-rho values whose correlation matrix is not positive definite
    (corr(O, Y) is bounded given corr(O, W) and corr(W, Y))."""
    if kind != "delta_rho":
        return GRID[kind]
    pair, base = sim.rho_original_reworked, sim.rho_reworked_downstream
    largest = pair * base + np.sqrt((1 - pair**2) * (1 - base**2)) - base
    return GRID[kind][GRID[kind] < largest - 1e-9]


def smallest_effect(kind: str, design: Design, sim: Simulation, alpha: float) -> tuple[float, float]:
    """(smallest grid effect with power >= target, its power) by bisection on the grid (power rises with
    the effect); (NaN, power at the largest) if even the largest falls short."""
    grid = feasible_grid(kind, sim)
    cache: dict[int, float] = {}

    def at(i: int) -> float:
        if i not in cache:
            cache[i] = power(kind, float(grid[i]), design, sim, alpha)
        return cache[i]

    if not at(len(grid) - 1) >= sim.target:
        return np.nan, at(len(grid) - 1)
    high = _first_reaching(at, -1, len(grid) - 1, sim.target)  # low = -1: below the grid
    return float(grid[high]), at(high)


def models_needed(
    kind: str, effect: float, design: Design, sim: Simulation, alpha: float, most: int = 400
) -> tuple[int | None, float]:
    """(fewest models, in ``design.n_families`` families, with power >= target for ``effect``, its power);
    (None, power at ``most``) if ``most`` models fall short."""
    smallest = max(4, design.n_families + 1)

    def at(n: int) -> float:
        return power(kind, effect, replace(design, n_models=n), sim, alpha)

    if not at(most) >= sim.target:
        return None, at(most)
    high = _first_reaching(at, smallest - 1, most, sim.target)
    return high, at(high)


def _first_reaching(at, low: int, high: int, target: float) -> int:
    """Bisection for power rising in its argument: the smallest i in (low, high] with at(i) >= target,
    given at(high) >= target and low below every candidate."""
    while high - low > 1:
        middle = (low + high) // 2
        if at(middle) >= target:
            high = middle
        else:
            low = middle
    return high


def design_rows(
    design: Design,
    downstream: str,
    sim: Simulation,
    alpha: float,
    true_share: float,
    kinds=KINDS,
    min_models: int = 5,
    missing: dict[str, str] | None = None,
) -> list[dict]:
    """The power rows of one design: per kind, unadjusted and (tests the study FDR-adjusts) at BH's
    per-test alpha. ``missing``: kind -> why the study has no such test (reported, not simulated)."""
    rows = []
    adjustments = {"none": alpha, "fdr": fdr_alpha(alpha, true_share, sim.target)}
    for kind in kinds:
        for adjustment, per_test in adjustments.items():
            if kind == "lofo_gain" and adjustment == "fdr":
                continue  # LOFO is descriptive in the study: no FDR family
            row = {
                "kind": kind,
                "downstream": downstream,
                "n_models": design.n_models,
                "n_families": design.n_families,
                "benchmark_items": design.benchmark_items,
                "task_items": design.task_items,
                "adjustment": adjustment,
                "alpha_per_test": per_test,
                "true_share": true_share if adjustment == "fdr" else np.nan,
                "n_sim": sim.n_sim,
                "n_boot": sim.n_boot if kind != "rho" else 0,
            }
            reason = (missing or {}).get(kind)
            if reason is None and design.n_models < min_models:
                reason = f"{design.n_models} models (< min_models={min_models})"
            if reason is None and kind == "lofo_gain" and design.n_families < 3:
                reason = f"{design.n_families} families: leave-one-family-out needs 3"
            if reason:
                rows.append({**row, "smallest_effect": np.nan, "power_at_effect": np.nan, "note": reason})
                continue
            effect, achieved = smallest_effect(kind, design, sim, per_test)
            note = (
                ""
                if np.isfinite(effect)
                else f"power {achieved:.2f} < {sim.target} even at {feasible_grid(kind, sim)[-1]}"
            )
            rows.append({**row, "smallest_effect": effect, "power_at_effect": achieved, "note": note})
    return rows


def _median_items(counts) -> int | None:
    counts = [int(c) for c in counts if pd.notna(c)]
    return int(np.median(counts)) if counts else None


def study_power_table(
    study, reliability: pd.DataFrame, sim: Simulation, alpha: float, true_share: float, min_models: int
) -> pd.DataFrame:
    """The power table of a study: its models and families, the median item count of its commonsense
    benchmarks, and one design per downstream task (that task's item count)."""
    items = reliability.drop_duplicates("task").set_index("task")["n_items"]
    cs_tasks = study.tasks_with_role("cs_original") + study.tasks_with_role("cs_reworked")
    benchmark_items = _median_items(items.reindex(cs_tasks))
    missing = {} if study.tasks_with_role("cs_reworked") else {"delta_rho": "the study has no original/reworked pair"}
    n_models, n_families = len(study.models), study.models["family"].nunique()
    rows = []
    for task in study.tasks_with_role("downstream"):
        task_items = items.get(task)
        design = Design(n_models, n_families, benchmark_items, None if pd.isna(task_items) else int(task_items))
        rows += design_rows(design, task, sim, alpha, true_share, min_models=min_models, missing=missing)
    table = pd.DataFrame.from_records(rows, columns=COLUMNS)
    unknown = table["task_items"].isna() | (benchmark_items is None)
    table.loc[unknown, "note"] = [
        "; ".join(filter(None, [note, "an item count is unknown: that task simulated without sampling error"]))
        for note in table.loc[unknown, "note"]
    ]
    return table


def main(argv=None) -> None:
    """Command line: the smallest detectable effects of a design, or the models a named effect needs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=int, required=True)
    parser.add_argument("--families", type=int, required=True)
    parser.add_argument("--benchmark-items", type=int, default=None)
    parser.add_argument("--task-items", type=int, nargs="+", default=[None], help="one design per downstream size")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--true-share", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--n-sim", type=int, default=Simulation.n_sim)
    parser.add_argument("--n-boot", type=int, default=Simulation.n_boot)
    parser.add_argument("--family-share", type=float, default=Simulation.family_share)
    parser.add_argument("--spread", type=float, default=Simulation.spread)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--needed", metavar="KIND=EFFECT", help="instead: the models needed for this effect")
    parser.add_argument("--out", help="also write the table as CSV here")
    args = parser.parse_args(argv)
    sim = Simulation(args.seed, args.n_sim, args.n_boot, family_share=args.family_share, spread=args.spread)
    if args.needed:
        kind, effect = args.needed.split("=")
        rows = []
        for items in args.task_items:
            design = Design(args.models, args.families, args.benchmark_items, items)
            n, achieved = models_needed(kind, float(effect), design, sim, args.alpha)
            rows.append(
                {
                    "kind": kind,
                    "effect": float(effect),
                    "n_families": args.families,
                    "task_items": items,
                    "models_needed": n,
                    "power": achieved,
                    "n_sim": args.n_sim,
                }
            )
            print(f"{kind}={effect}, task items {items}: {n} models (power {achieved:.3f})")
        if args.out:
            pd.DataFrame(rows).to_csv(args.out, index=False)
        return
    rows = []
    for items in args.task_items:
        design = Design(args.models, args.families, args.benchmark_items, items)
        rows += design_rows(design, f"{items} items", sim, args.alpha, args.true_share, kinds=args.kinds)
    table = pd.DataFrame.from_records(rows, columns=COLUMNS)
    if args.out:
        table.to_csv(args.out, index=False)
    print(table.drop(columns=["n_sim", "n_boot"]).to_string(index=False))


if __name__ == "__main__":
    main()
