"""The atlas heatmap: predictors x criteria, each cell Spearman rho with its bootstrap CI and n, and a
star where the pair survives FDR across the atlas (docs/atlas.md)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def criterion_cells(pairs: pd.DataFrame, criteria: list[str]) -> pd.DataFrame:
    """Long table predictor, criterion, rho, ci_low, ci_high, n_models, p_fdr from the symmetric pairs table."""
    forward = pairs.rename(columns={"column_a": "predictor", "column_b": "criterion"})
    backward = pairs.rename(columns={"column_b": "predictor", "column_a": "criterion"})
    both = pd.concat([forward, backward], ignore_index=True)
    both = both[both["criterion"].isin(criteria) & ~both["predictor"].isin(criteria)]
    return both[["predictor", "criterion", "rho", "ci_low", "ci_high", "n_models", "p_fdr"]]


def draw_heatmap(cells: pd.DataFrame, criteria: list[str], alpha: float, min_criteria: int, paths: list[str], dpi: int):
    """Heatmap of the predictors having at least ``min_criteria`` criteria, ordered by their mean rho."""
    rho = cells.pivot(index="predictor", columns="criterion", values="rho").reindex(columns=criteria)
    rho = rho[rho.notna().sum(axis=1) >= min_criteria]
    rho = rho.loc[rho.mean(axis=1).sort_values(ascending=False).index]
    lookup = cells.set_index(["predictor", "criterion"])
    height = max(4.0, 0.42 * len(rho) + 2.0)
    figure, axis = plt.subplots(figsize=(1.7 * len(criteria) + 3.0, height))
    image = axis.imshow(rho.to_numpy(float), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
    for i, predictor in enumerate(rho.index):
        for j, criterion in enumerate(criteria):
            if (predictor, criterion) not in lookup.index:
                continue
            cell = lookup.loc[(predictor, criterion)]
            star = "*" if np.isfinite(cell["p_fdr"]) and cell["p_fdr"] < alpha else ""
            text = f"{cell['rho']:.2f}{star}\n[{cell['ci_low']:.2f}, {cell['ci_high']:.2f}] n={int(cell['n_models'])}"
            axis.text(j, i, text, ha="center", va="center", fontsize=6)
    axis.set_xticks(range(len(criteria)), criteria, rotation=30, ha="right", fontsize=8)
    axis.set_yticks(range(len(rho)), rho.index, fontsize=7)
    axis.set_title(
        f"Validity atlas: Spearman rho [bootstrap CI] n; * = BH-FDR < {alpha} across the atlas\n"
        f"(predictors sharing >= atlas.min_models models with at least {min_criteria} criteria)",
        fontsize=9,
    )
    figure.colorbar(image, ax=axis, fraction=0.03, label="Spearman rho")
    figure.tight_layout()
    for path in paths:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=dpi)
    plt.close(figure)
    return rho.index.tolist()
