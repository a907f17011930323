"""Per criterion, a ranked forest plot of its predictors (docs/atlas.md, "Figures").

From the human-preference table (one row per criterion and predictor: Spearman rho, its bootstrap CI, n):

* **which predictors are drawn**: the ``top_k`` with the highest lower CI bound of raw rho (the predictors
  most surely predictive of the criterion; ties by n, then name); every predictor, drawn or not, is in
  the forest table (``in_figure``), so nothing is hidden, only left out of the picture;
* **two panels side by side**: raw rho and rho beyond general capability (``rho_beyond_g`` with its CI,
  when the table has it; else that panel says "not computed" and why), each with its interval;
* **n** of each estimate printed at the right;
* **ranks as groups**: the predictors' ranks by raw rho are tie groups from their intervals
  (:func:`benchval.analysis.rank_resolution.adjacent_from_intervals`: adjacent predictors whose intervals
  overlap share a group), printed as a range (``"2-5"``) before each name only where the drawn rows fall in
  more than one group (one group for all separates nothing);
* **rows in the order the title says**: by the lower CI bound (the selection key), the highest at the top;
  the title states the point (the most surely predictive predictor with its interval) before the rule;
* **n beyond g** as the right-hand axis's tick labels, so the layout makes room for them (never clipped).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import plt
from benchval.analysis.rank_resolution import adjacent_from_intervals
from benchval.atlas.benchmark_names import display_name

BEYOND_G = ("rho_beyond_g", "rho_beyond_g_ci_low", "rho_beyond_g_ci_high")
FOREST_COLUMNS = [
    "criterion",
    "predictor",
    "rank_range",
    "separable_from_next",
    "in_figure",
    "n_models",
    "rho",
    "ci_low",
    "ci_high",
    "n_beyond_g",
    "rho_beyond_g",
    "rho_beyond_g_ci_low",
    "rho_beyond_g_ci_high",
]
SELECTION_RULE = "top {k} by the lower CI bound of raw rho"


def has_beyond_g(table: pd.DataFrame) -> bool:
    return all(column in table.columns for column in BEYOND_G)


def forest_table(table: pd.DataFrame, criterion: str, top_k: int) -> pd.DataFrame:
    """The criterion's predictors ranked by raw rho with tie groups, and which ``top_k`` are drawn."""
    own = table[(table["criterion"] == criterion) & table["rho"].notna()].set_index("predictor")
    resolution = adjacent_from_intervals(own, "rho", "ci_low", "ci_high")
    ranked = own.loc[resolution.index].join(resolution[["rank_range", "separable_from_next"]])
    chosen = ranked.assign(_n=ranked["n_models"]).sort_values(["ci_low", "_n"], ascending=False, kind="mergesort")
    ranked["in_figure"] = ranked.index.isin(chosen.index[:top_k])
    ranked = ranked.reset_index()
    for column in ("n_beyond_g", *BEYOND_G):
        if column not in ranked:
            ranked[column] = np.nan
    return ranked.assign(criterion=criterion)[FOREST_COLUMNS]


def _panel(axis, rows: pd.DataFrame, columns: tuple[str, str, str], colour: str, title: str) -> None:
    y = np.arange(len(rows))
    value, low, high = (rows[c].to_numpy(float) for c in columns)
    shown = np.isfinite(value)
    # a value without an interval (too few models or families for one) is drawn hollow, never as a measured point
    with_interval = shown & np.isfinite(low) & np.isfinite(high)
    errors = np.vstack([value - low, high - value])[:, with_interval]
    axis.errorbar(value[with_interval], y[with_interval], xerr=errors, fmt="o", color=colour, markersize=4, capsize=2)
    bare = shown & ~with_interval
    axis.plot(value[bare], y[bare], "o", markerfacecolor="white", markeredgecolor=colour, markersize=4)
    for row in y[~shown]:
        axis.text(0, row, "n/a", ha="center", va="center", fontsize=7, color="grey")
    axis.axvline(0, color="grey", linewidth=0.8)
    axis.set_xlim(-1.05, 1.05)
    axis.set_title(title, fontsize=9)
    axis.grid(axis="x", alpha=0.3)
    axis.tick_params(labelsize=8)


def not_computed_panel(axis, reason: str) -> None:
    """The beyond-g panel of an atlas figure where no rho beyond g was computed: says so, draws nothing."""
    axis.set_xticks([])
    axis.set_title("rho beyond general capability", fontsize=9)
    axis.text(
        0.5, 0.5, f"not computed:\n{reason}", transform=axis.transAxes, ha="center", va="center", fontsize=8, wrap=True
    )


def tie_prefixes(rows: pd.DataFrame) -> list[str]:
    """Each drawn row's tie group, as a prefix; none where every drawn row shares one group (a single
    group separates nothing)."""
    if rows["rank_range"].nunique() <= 1:
        return ["" for _ in range(len(rows))]
    width = int(rows["rank_range"].astype(str).str.len().max())
    return [f"{str(r):>{width}}  " for r in rows["rank_range"]]


def _n_axis(beyond, rows: pd.DataFrame) -> None:
    """n of each beyond-g estimate as tick labels of a right-hand axis (laid out, never clipped)."""
    labels = []
    for y, n in enumerate(rows["n_beyond_g"]):
        no_interval = pd.isna(rows["rho_beyond_g_ci_low"].iloc[y])
        labels.append("n/a" if pd.isna(n) else f"n={int(n)}" + (", no CI" if no_interval else ""))
    right = beyond.twinx()
    right.set_ylim(beyond.get_ylim())
    right.set_yticks(range(len(rows)), labels, fontsize=7)
    right.tick_params(length=0)


def forest_title(
    forest: pd.DataFrame, rows: pd.DataFrame, criterion: str, top_k: int, level: float, names: dict | None = None
) -> str:
    """The point first (the most surely predictive predictor and its bound), then what is drawn and how."""
    percent = int(round(level * 100))
    n_all = len(forest)
    shown = display_name(criterion, names or {})
    if rows.empty:
        return f"{shown}: no predictor with a defined rho"
    best = rows.iloc[-1]
    point = (
        f"{display_name(best['predictor'], names or {})} predicts {shown} most surely: "
        f"rho = {best['rho']:.2f}, {percent}% CI [{best['ci_low']:.2f}, {best['ci_high']:.2f}]"
    )
    return (
        f"{point}\n{min(top_k, n_all)} of {n_all} predictors drawn ({SELECTION_RULE.format(k=top_k)}), in that order; "
        "the rest in forest.csv" + ("; prefix = tie group (intervals overlap)" if tie_prefixes(rows)[0] else "")
    )


def draw_forest(
    forest: pd.DataFrame, criterion: str, top_k: int, level: float, beyond_g_reason: str, names: dict | None = None
):
    """The figure of one criterion (rows: its drawn predictors, best lower bound at the top); returned open.
    ``names``: display names of benchmarks and criteria (benchval.atlas.benchmark_names; ids where absent)."""
    names = names or {}
    drawn = forest[forest["in_figure"]].assign(_n=forest["n_models"])
    rows = drawn.sort_values(["ci_low", "_n"], ascending=True, kind="mergesort").drop(columns="_n")
    height = 0.28 * max(len(rows), 3) + 1.9
    figure, (raw, beyond) = plt.subplots(1, 2, sharey=True, figsize=(9.5, height), layout="constrained")
    percent = int(round(level * 100))
    _panel(
        raw,
        rows,
        ("rho", "ci_low", "ci_high"),
        "C0",
        f"Spearman rho with {display_name(criterion, names)} [{percent}% CI]",
    )
    labels = [
        f"{prefix}{display_name(r.predictor, names)}  (n={int(r.n_models)})"
        for prefix, r in zip(tie_prefixes(rows), rows.itertuples())
    ]
    raw.set_yticks(range(len(rows)), labels, fontsize=8)
    raw.set_ylim(-0.7, len(rows) - 0.3)
    if rows[list(BEYOND_G)].notna().any().any():
        _panel(beyond, rows, BEYOND_G, "C3", "rho beyond general capability")
        beyond.set_title("rho beyond g (hollow: no CI)", fontsize=9)
        _n_axis(beyond, rows)
    else:
        not_computed_panel(beyond, beyond_g_reason)
    figure.suptitle(forest_title(forest, rows, criterion, top_k, level, names), fontsize=9)
    return figure
