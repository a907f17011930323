"""Agreement beside validity (docs/atlas.md, "Agreement versus validity").

BenchBench (IBM/benchbench, ``src/bat``) tests a benchmark by its agreement with an aggregate reference:
``Benchmark.add_aggregate(mean_or_mwr="mwr")`` scores each model by its mean win rate (per scenario, the
fraction of the other models it beats strictly, averaged over the scenarios the model has), and
``Tester.all_vs_all_agreement_testing`` correlates each scenario with that aggregate on the shared models
(Kendall tau among its ``corr_types``). Here, on the same data as the validity ranking:

* models: those with a score on the criterion (e.g. Arena Elo), so both rankings rest on one model set;
* benchmarks: the criterion's predictors (benchval.atlas.predictors);
* agreement of benchmark b: Kendall tau-b (scipy's ``kendalltau`` default) of b with the mean win rate
  over the reference columns, on the models having both. The reference defaults to BenchBench's holistic
  aggregates (``atlas.agreement_reference``: its ``examples/scenarios_for_aggregate.txt`` - HELM Lite, Open
  LLM v2, OpenCompass Academic, LMSys Arena, HELM Classic, AlpacaEval 2 LC, LiveBench, WildBench Elo LC -
  as atlas columns); an empty list means every other benchmark. The reference never holds b itself, b's
  one-measure-one-vote siblings (benchval.atlas.groups: an aggregate is never compared with its own
  parts), or the criterion;
* validity of b: Spearman rho of b with the criterion on the models having both.

Ranks: 1 = highest. Their bootstrap intervals resample, per benchmark and per draw, the models of that
benchmark's pair (independently across benchmarks, the reference kept fixed) and rank all benchmarks in
each draw. A benchmark *moved* only where the percentile interval of its rank difference (validity rank minus
agreement rank, per draw) excludes 0: a point difference inside overlapping intervals is not a move.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.bootstrap import bootstrap_spearman, resample_indices, rng_for
from benchval.atlas.statistics_settings import Resampling


def win_rates(wide: pd.DataFrame) -> pd.DataFrame:
    """Per column, the fraction of the other scored models each model beats strictly (BenchBench's win rate)."""
    ranks = wide.rank(method="min") - 1  # models strictly below
    counts = wide.notna().sum()
    return ranks / (counts - 1).where(counts > 1)


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b of each row pair of ``x`` and ``y`` (B x n), vectorised; equals scipy's kendalltau."""
    sx = np.sign(x[:, :, None] - x[:, None, :])
    sy = np.sign(y[:, :, None] - y[:, None, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sx * sy).sum(axis=(1, 2)) / np.sqrt((sx * sx).sum(axis=(1, 2)) * (sy * sy).sum(axis=(1, 2)))


def _bootstrap_tau(x: np.ndarray, y: np.ndarray, n_boot: int, rng, chunk: int = 200) -> np.ndarray:
    indices = resample_indices(rng, len(x), n_boot)
    return np.concatenate(
        [kendall_tau_b(x[part], y[part]) for part in np.array_split(indices, max(1, n_boot // chunk))]
    )


def _ranks(values: np.ndarray) -> np.ndarray:
    """Rank 1 = highest per row; NaN stays NaN (ranked last)."""
    filled = np.where(np.isfinite(values), values, -np.inf)
    return stats.rankdata(-filled, axis=-1, method="average")


def reference_columns(benchmark: str, reference: list, criterion: str, groups: dict) -> list:
    """The reference of ``benchmark``: ``reference`` less the benchmark, its siblings and the criterion."""
    own = groups.get(benchmark, benchmark)
    return [c for c in reference if c != benchmark and c != criterion and groups.get(c, c) != own]


def _add_ranks(table: pd.DataFrame, kind: str, point: list, draws: list, tail: float) -> np.ndarray:
    """Add ``kind``'s values, ranks and rank intervals to ``table``; return the resampled ranks (n_boot x
    benchmarks)."""
    values = np.asarray(point, float)
    sampled = _ranks(np.column_stack(draws))
    table[kind] = values
    table[f"{kind}_rank"] = np.where(np.isfinite(values), _ranks(values), np.nan)  # an undefined value is not ranked
    table[f"{kind}_rank_ci_low"] = np.quantile(sampled, tail, axis=0)
    table[f"{kind}_rank_ci_high"] = np.quantile(sampled, 1 - tail, axis=0)
    return sampled


def agreement_validity(
    wide: pd.DataFrame,
    criterion: str,
    benchmarks: list[str],
    resampling: Resampling,
    reference: list | None = None,
    groups: dict | None = None,
) -> pd.DataFrame:
    """One row per benchmark: agreement and validity with their ranks, rank intervals and the bootstrap test
    of the rank difference. ``reference``: the aggregate's columns (None or empty: every benchmark);
    ``groups``: column -> one-measure-one-vote group (None: every column its own)."""
    reference = list(reference or benchmarks)
    groups = groups or {}
    absent = sorted(set(reference) - set(wide.columns))
    if absent:
        raise KeyError(f"atlas.agreement_reference: {absent} are no atlas columns")
    models = wide.index[wide[criterion].notna()]
    columns = list(dict.fromkeys([*benchmarks, *reference]))
    scores = wide.loc[models, columns]
    wins = win_rates(scores)
    y = wide.loc[models, criterion].to_numpy(float)
    n_boot, level = resampling.n_bootstrap, resampling.ci_level
    point = {"agreement": [], "validity": []}
    draws = {"agreement": [], "validity": []}
    counts, used = [], []
    for benchmark in benchmarks:
        own_reference = reference_columns(benchmark, reference, criterion, groups)
        used.append(";".join(own_reference))
        reference_score = wins[own_reference].mean(axis=1, skipna=True).to_numpy(float)
        x = scores[benchmark].to_numpy(float)
        with_reference = np.isfinite(x) & np.isfinite(reference_score)
        tau = stats.kendalltau(x[with_reference], reference_score[with_reference]).statistic
        point["agreement"].append(tau)
        rng = rng_for(resampling.seed, "agreement", criterion, benchmark)
        draws["agreement"].append(_bootstrap_tau(x[with_reference], reference_score[with_reference], n_boot, rng))
        with_criterion = np.isfinite(x) & np.isfinite(y)
        point["validity"].append(stats.spearmanr(x[with_criterion], y[with_criterion]).statistic)
        rng = rng_for(resampling.seed, "validity", criterion, benchmark)
        pair = np.column_stack([x[with_criterion], y[with_criterion]])
        draws["validity"].append(bootstrap_spearman(pair, resample_indices(rng, len(pair), n_boot))[:, 0, 1])
        counts.append((int(with_reference.sum()), int(with_criterion.sum())))
    tail = (1 - level) / 2
    table = pd.DataFrame({"criterion": criterion, "benchmark": benchmarks})
    table["n_models_agreement"], table["n_models_validity"] = zip(*counts)
    sampled_ranks = {
        kind: _add_ranks(table, kind, point[kind], draws[kind], tail) for kind in ("agreement", "validity")
    }
    shift = sampled_ranks["validity"] - sampled_ranks["agreement"]
    table["rank_shift"] = table["validity_rank"] - table["agreement_rank"]
    table["rank_shift_ci_low"] = np.quantile(shift, tail, axis=0)
    table["rank_shift_ci_high"] = np.quantile(shift, 1 - tail, axis=0)
    table["moved"] = (table["rank_shift_ci_low"] > 0) | (table["rank_shift_ci_high"] < 0)
    table["reference"] = used
    return table.sort_values("validity_rank").reset_index(drop=True)
