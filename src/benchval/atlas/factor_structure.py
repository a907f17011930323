"""Factor structure of a dense block of the atlas (docs/atlas.md, "Factor structure"): how much of the models'
rank order one general factor explains, each column's loading on the first factors, and its uniqueness (the
part of its variance no common factor explains: what a benchmark measures beyond the others, or its noise).

The block is stated in config (``atlas.factor_structure.leaderboards``): the score columns of those
leaderboards (their aggregates left out) on the models scoring every one of them, rank-transformed to rankits
(benchval.atlas.general_factor.rankits). The fit is statsmodels' ``Factor`` (principal axis, squared multiple
correlations as starting communalities) on their correlation matrix; the scree is the eigenvalues of that
correlation matrix (variance explained = eigenvalue / number of columns). The block is also where the atlas's
pairwise g is compared with a complete-case first principal component
(benchval.atlas.general_factor.complete_case_check).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from benchval.atlas.general_factor import rankits


def dense_block(wide: pd.DataFrame, leaderboard: dict, leaderboards: list[str], aggregates: dict) -> pd.DataFrame:
    """The block's columns (aggregates left out) on the models scoring all of them."""
    left_out = {c for lb in leaderboards for c in aggregates.get(lb, [])}
    columns = [c for c in wide.columns if leaderboard.get(c) in set(leaderboards) and c not in left_out]
    if len(columns) < 3:
        raise ValueError(f"atlas.factor_structure.leaderboards {leaderboards}: {len(columns)} columns, need 3 or more")
    return wide[columns].dropna()


def factor_tables(block: pd.DataFrame, n_factors: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(scree: one row per eigenvalue; loadings: one row per column with loadings, communality, uniqueness - the
    variance no common factor explains - and beyond_factor_1 = 1 - loading_1^2, what the general factor leaves)."""
    from statsmodels.multivariate.factor import Factor

    z = rankits(block)
    correlation = np.corrcoef(z.to_numpy(), rowvar=False)
    eigenvalues = np.sort(np.linalg.eigvalsh(correlation))[::-1]
    scree = pd.DataFrame(
        {
            "factor": np.arange(1, len(eigenvalues) + 1),
            "eigenvalue": eigenvalues,
            "variance_explained": eigenvalues / len(eigenvalues),
            "cumulative": np.cumsum(eigenvalues) / len(eigenvalues),
            "n_models": len(block),
            "n_columns": block.shape[1],
        }
    )
    fit = Factor(corr=correlation, n_factor=n_factors, method="pa", nobs=len(block)).fit()
    loadings = pd.DataFrame(fit.loadings, index=block.columns, columns=[f"loading_{i + 1}" for i in range(n_factors)])
    if loadings["loading_1"].sum() < 0:
        loadings["loading_1"] *= -1
    loadings["communality"] = fit.communality
    loadings["uniqueness"] = fit.uniqueness
    loadings["beyond_factor_1"] = 1.0 - loadings["loading_1"] ** 2  # the variance the general factor leaves
    return scree, loadings.rename_axis("column").reset_index().sort_values("loading_1", ascending=False)


def draw_factor_figure(scree: pd.DataFrame, loadings: pd.DataFrame, paths: list[str], dpi: int) -> None:
    """Scree (variance explained per factor) beside each column's first loading and uniqueness."""
    n_factors = sum(c.startswith("loading_") for c in loadings.columns)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [1, 1.6]})
    left.plot(scree["factor"], scree["variance_explained"], marker="o")
    left.set_xlabel("factor (eigenvalue of the rankit correlation matrix)")
    left.set_ylabel("share of variance")
    left.set_title(f"Scree: {int(scree['n_models'].iloc[0])} models x {int(scree['n_columns'].iloc[0])} columns")
    positions = np.arange(len(loadings))
    right.barh(positions - 0.27, loadings["loading_1"], height=0.27, label="loading on factor 1")
    right.barh(positions, loadings["beyond_factor_1"], height=0.27, label="1 - loading^2 (beyond factor 1)")
    right.barh(positions + 0.27, loadings["uniqueness"], height=0.27, label=f"uniqueness ({n_factors} factors)")
    right.set_yticks(positions, loadings["column"], fontsize=8)
    right.invert_yaxis()
    right.set_xlim(-0.2, 1.05)
    right.legend(fontsize=8, loc="lower right")
    right.set_title("Loadings (principal axis, statsmodels) and uniqueness")
    figure.tight_layout()
    for path in paths:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=dpi)
    plt.close(figure)
