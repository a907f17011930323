"""Which general factor g a study pair's headline controls for (docs/atlas.md, "Which g"), chosen by a stated
rule and shown beside the alternatives, for the open_llm pairs the report leads with.

Candidates, each a score per model of the study population (the study's models with a family):

* ``study_pc``: the first principal component of the study's other columns, the pair's two left out
  (benchval.analysis.partial_sensitivity.general_factor, the chain's ``general_factor`` covariate);
* ``study_factor``: a one-factor model (scikit-learn ``FactorAnalysis``, maximum likelihood, on the
  standardised ranks of the same columns and models; regression scores), the specification beside the
  principal component; a column whose uniqueness falls under ``HEYWOOD_UNIQUENESS`` is listed (Heywood);
* ``atlas``: the atlas g (benchval.atlas.general_factor: a one-factor model of the whole leaderboard matrix)
  without the pair's one-measure-one-vote groups and every column measuring the pair's traits elsewhere
  (benchval.atlas.methods), so from the models' other leaderboards.

Per candidate: its coverage (the pair's models with a g), the share of variance its factor explains (its
loaded columns' mean squared loading; the principal component's explained-variance ratio), its Spearman
correlation with each other candidate on the models both cover, and the partial Spearman of the pair beyond
it with its n and family-clustered interval (benchval.atlas.incremental).

**The rule** (``chosen``, ``why``), which never looks at the pair's own correlation: the candidate covering the
most of the pair's models (a g on fewer models is another population: the atlas g exists for a fraction of the
study's models); among equal coverage, the one agreeing best with the g of the other source (``agreement``:
a study candidate's Spearman with the atlas g, the atlas g's best Spearman with a study candidate - convergent
validity: a better measure of general capability agrees more with an independent one); then the variance its
factor explains (a principal component's share of total variance is not a factor's share of common variance,
so this comes last). The principal component and the one-factor model are one choice of specification on the
same columns: the one not chosen is the specification row, the atlas g the sensitivity row. The report's
verdict reads the chosen g only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from benchval.analysis.bootstrap import rng_for
from benchval.analysis.partial_sensitivity import general_factor
from benchval.atlas.incremental import Population, incremental_validity
from benchval.atlas.statistics_settings import IncrementalSettings

CANDIDATES = ("study_pc", "study_factor", "atlas")
HEYWOOD_UNIQUENESS = 0.01  # a one-factor uniqueness below this: the column is the factor (Heywood case)


def one_factor_scores(wide: pd.DataFrame, left_out: list[str]) -> tuple[pd.Series, float, list[str]]:
    """(score per model, variance explained, Heywood columns) of a maximum-likelihood one-factor model of the
    columns of ``wide`` not in ``left_out`` (standardised ranks, complete rows; NaN elsewhere)."""
    from sklearn.decomposition import FactorAnalysis

    other = wide.drop(columns=left_out).dropna()
    if other.shape[1] < 3 or len(other) < 10:
        return pd.Series(np.nan, index=wide.index), np.nan, []
    ranks = other.rank()
    z = ((ranks - ranks.mean()) / ranks.std(ddof=0)).to_numpy()
    model = FactorAnalysis(n_components=1, random_state=0).fit(z)
    loadings = model.components_[0]
    sign = 1.0 if loadings.sum() >= 0 else -1.0
    scores = pd.Series(sign * model.transform(z)[:, 0], index=other.index).reindex(wide.index)
    heywood = [c for c, psi in zip(other.columns, model.noise_variance_) if psi < HEYWOOD_UNIQUENESS]
    return scores, float(np.mean(loadings**2)), heywood


def principal_component(wide: pd.DataFrame, left_out: list[str]) -> tuple[pd.Series, float]:
    """(the study g, its explained-variance ratio) on the columns not in ``left_out``, complete rows."""
    other = wide.drop(columns=left_out).dropna()
    g = general_factor(wide, left_out)
    if other.shape[1] < 2 or len(other) < 3:
        return g, np.nan
    ranks = other.rank()
    z = ((ranks - ranks.mean()) / ranks.std(ddof=0)).fillna(0.0).to_numpy()
    singular = np.linalg.svd(z, compute_uv=False)
    return g, float(singular[0] ** 2 / (singular**2).sum())


def candidates(study: pd.DataFrame, columns: list[str], a: str, b: str, atlas: Population) -> dict:
    """name -> (g per study model, variance explained, Heywood columns)."""
    wide = study[columns]
    pc, pc_share = principal_component(wide, [a, b])
    factor, factor_share, heywood = one_factor_scores(wide, [a, b])
    atlas_g = pd.Series(atlas.g_without(a, b), index=atlas.clusters.index).reindex(study.index)
    atlas_fit = atlas.g_fit(a, b)
    return {
        "study_pc": (pc, pc_share, []),
        "study_factor": (factor, factor_share, heywood),
        "atlas": (
            atlas_g,
            atlas.g_variance_explained(a, b),
            [c for c in atlas_fit["g_heywood_columns"].split(";") if c],
        ),
    }


def agreement(row: dict) -> float:
    """A candidate's Spearman with the g of the other source (module docstring); NaN when not measured."""
    if row["g"] == "atlas":
        values = [row.get(f"spearman_with_{name}", np.nan) for name in CANDIDATES if name != "atlas"]
        values = [v for v in values if np.isfinite(v)]
        return max(values) if values else np.nan
    return row.get("spearman_with_atlas", np.nan)


def choose(rows: list[dict]) -> tuple[str, str]:
    """(chosen candidate, why) by the module's rule."""

    def key(row):
        return (
            -row["coverage"],
            -np.nan_to_num(agreement(row), nan=-2.0),
            -np.nan_to_num(row["variance_explained"], nan=-1.0),
        )

    best, runner = sorted(rows, key=key)[:2]
    if best["coverage"] > runner["coverage"]:
        return best["g"], f"covers the most models ({best['coverage']}; next {runner['g']}: {runner['coverage']})"
    if np.nan_to_num(agreement(best), nan=-2.0) > np.nan_to_num(agreement(runner), nan=-2.0):
        return best["g"], (
            f"covers as many models as {runner['g']} ({best['coverage']}) and agrees better with the other source's g "
            f"(Spearman {agreement(best):.2f} vs {agreement(runner):.2f})"
        )
    return best["g"], (
        f"covers as many models as {runner['g']} ({best['coverage']}), agrees as well with the other source's g, "
        f"and its factor explains more variance ({best['variance_explained']:.2f} vs "
        f"{runner['variance_explained']:.2f})"
    )


def _correlation(x: pd.Series, y: pd.Series, min_models: int) -> tuple[float, int]:
    both = x.notna() & y.notna()
    if both.sum() < min_models:
        return np.nan, int(both.sum())
    return float(stats.spearmanr(x[both], y[both]).statistic), int(both.sum())


def pair_choice(
    study: pd.DataFrame, columns: list[str], a: str, b: str, atlas: Population, settings: IncrementalSettings
) -> list:
    """One row per candidate g for the pair (a, b) of ``study`` (index: model; columns family, size_b and the
    study's columns)."""
    rows_in = study[[a, b, "family"]].notna().all(axis=1)
    data = study[rows_in]
    found = candidates(study, columns, a, b, atlas)
    clusters = data["family"].astype(str).to_numpy()
    log_size = np.log(data["size_b"].astype(float)).to_numpy()
    rows = []
    for name, (g, share, heywood) in found.items():
        covered = g.reindex(data.index)
        rng = rng_for(settings.resampling.seed, "g_choice", a, b)  # one stream per pair: the candidates share resamples
        values = incremental_validity(
            data[a].to_numpy(float),
            data[b].to_numpy(float),
            {"g": covered.to_numpy(float), "size": log_size},
            clusters,
            {
                **settings.interval_options(),
                "min_interval_n": 0,
            },  # every candidate's interval, below the headline n too
            rng,
        )
        record = {
            "column_a": a,
            "column_b": b,
            "g": name,
            "n_pair": int(len(data)),
            "coverage": int(covered.notna().sum()),
        }
        record["variance_explained"] = share
        record["heywood_columns"] = ";".join(heywood)
        for other, (other_g, _, _) in found.items():
            if other != name:
                record[f"spearman_with_{other}"], record[f"n_with_{other}"] = _correlation(
                    covered, other_g.reindex(data.index), settings.min_models
                )
        keep = ("rho", "ci_low", "ci_high", "n_models", "rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high")
        record.update({k: values[k] for k in keep})
        record.update({"n_beyond_g": values["n_beyond_g"], "rho_same_population": values["rho_same_population"]})
        record["note"] = values["note"]
        rows.append(record)
    chosen, why = choose(rows)
    for record in rows:
        record["chosen"] = record["g"] == chosen
        record["role"] = (
            "headline" if record["chosen"] else ("sensitivity" if record["g"] == "atlas" else "specification")
        )
        record["why"] = why if record["chosen"] else ""
    if chosen == "atlas":
        for record in rows:
            if record["g"] != "atlas":
                record["role"] = "sensitivity"
    return rows


def g_choice_table(
    study: pd.DataFrame, columns: list[str], pairs: list, atlas: Population, settings: IncrementalSettings
):
    """Every (predictor column, criterion column) of ``pairs``: one row per candidate g (module docstring)."""
    records = [row for a, b in pairs for row in pair_choice(study, columns, a, b, atlas, settings)]
    return pd.DataFrame.from_records(records)
