"""The atlas heatmap, compact: benchmark groups x criteria (docs/atlas.md, "Figures").

Every sibling column of a leaderboard as its own row made a figure of 119 rows no one could read. Here a
row is a **group** of predictor columns: ``group_a``/``group_b`` of the pairs table when it has them (one
measure, one vote), else the column's leaderboard. A cell holds the **median** Spearman rho over the
group's columns that share at least ``atlas.min_models`` models with the criterion, and ``k`` = how many
columns that is (every single pair stays in pairs.csv and the forest plots). Two panels: raw rho, and rho
beyond general capability (``rho_beyond_g``) when the pairs table has it, else a panel that says "not
computed". A grey cell is n/a: no column of the group shares enough models with the criterion.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import plt
from benchval.atlas.benchmark_names import display_name
from benchval.atlas.forest import not_computed_panel

CELL_COLUMNS = ["predictor", "criterion", "group", "rho", "ci_low", "ci_high", "n_models", "p_fdr", "rho_beyond_g"]


def criterion_cells(pairs: pd.DataFrame, criteria: list[str]) -> pd.DataFrame:
    """Long table predictor, criterion, group, rho, ... from the symmetric pairs table."""
    pairs = pairs.copy()
    for side in ("a", "b"):
        if f"group_{side}" not in pairs:
            pairs[f"group_{side}"] = pairs.get(f"leaderboard_{side}", pairs[f"column_{side}"])
    if "rho_beyond_g" not in pairs:
        pairs["rho_beyond_g"] = np.nan
    forward = pairs.rename(columns={"column_a": "predictor", "column_b": "criterion", "group_a": "group"})
    backward = pairs.rename(columns={"column_b": "predictor", "column_a": "criterion", "group_b": "group"})
    both = pd.concat([forward[CELL_COLUMNS], backward[CELL_COLUMNS]], ignore_index=True)
    return both[both["criterion"].isin(criteria) & ~both["predictor"].isin(criteria)].reset_index(drop=True)


def group_cells(cells: pd.DataFrame, criteria: list[str], min_criteria: int) -> pd.DataFrame:
    """Per (group, criterion): median rho, median rho beyond g, k columns; groups with at least
    ``min_criteria`` criteria, ordered by their mean median rho."""
    grouped = cells.groupby(["group", "criterion"]).agg(
        rho=("rho", "median"), rho_beyond_g=("rho_beyond_g", "median"), k=("predictor", "nunique")
    )
    covered = grouped.reset_index().groupby("group")["criterion"].nunique()
    keep = covered[covered >= min_criteria].index
    grouped = grouped[grouped.index.get_level_values("group").isin(keep)]
    order = grouped["rho"].groupby("group").mean().sort_values(ascending=False).index
    return grouped.reset_index().assign(group=lambda f: pd.Categorical(f["group"], order)).sort_values("group")


def _panel(axis, grouped: pd.DataFrame, criteria: list[str], value: str, title: str, names: dict | None = None):
    matrix = grouped.pivot(index="group", columns="criterion", values=value).reindex(columns=criteria)
    counts = grouped.pivot(index="group", columns="criterion", values="k").reindex(columns=criteria)
    axis.set_facecolor("#d9d9d9")
    image = axis.imshow(np.ma.masked_invalid(matrix.to_numpy(float)), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
    for i in range(matrix.shape[0]):
        for j in range(matrix.shape[1]):
            rho, k = matrix.iat[i, j], counts.iat[i, j]
            text = "n/a" if not np.isfinite(rho) else f"{rho:.2f}\nk={int(k)}"
            colour = "white" if np.isfinite(rho) and abs(rho) > 0.6 else "black"
            axis.text(j, i, text, ha="center", va="center", fontsize=6.5, color=colour, linespacing=1.0)
    axis.set_xticks(range(len(criteria)), [display_name(c, names or {}) for c in criteria], rotation=90, fontsize=8)
    axis.set_title(title, fontsize=9)
    return image, list(matrix.index)


def draw_heatmap(
    cells: pd.DataFrame,
    criteria: list[str],
    alpha: float,
    min_criteria: int,
    paths: list[str],
    dpi: int,
    names: dict[str, str] | None = None,
):
    """The compact heatmap (see the module docstring); returns the groups drawn, top first. ``names``: the
    display names of the criteria (benchval.atlas.benchmark_names)."""
    grouped = group_cells(cells, criteria, min_criteria)
    n_groups = grouped["group"].nunique()
    figure, (raw, beyond) = plt.subplots(
        1, 2, sharey=True, figsize=(2 * (0.62 * len(criteria) + 0.6) + 2.8, 0.36 * n_groups + 3.0), layout="constrained"
    )
    image, groups = _panel(raw, grouped, criteria, "rho", "median Spearman rho", names)
    raw.set_yticks(range(len(groups)), [display_name(g, names or {}) for g in groups], fontsize=8)
    if grouped["rho_beyond_g"].notna().any():
        _panel(beyond, grouped, criteria, "rho_beyond_g", "median rho beyond general capability", names)
    else:
        not_computed_panel(beyond, "no rho_beyond_g column\nin pairs.csv")
    figure.colorbar(image, ax=[raw, beyond], fraction=0.03, label="Spearman rho").ax.tick_params(labelsize=8)
    figure.suptitle(
        "Validity atlas by benchmark group: median over the group's columns; k = columns; n/a (grey) = no column\n"
        f"shares >= atlas.min_models models with the criterion; groups with >= {min_criteria} criteria. "
        "Each pair, with CI, n and FDR: pairs.csv",
        fontsize=8,
    )
    for path in paths:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=dpi, metadata={"Date": None} if str(path).endswith(".pdf") else None)
    plt.close(figure)
    return groups
