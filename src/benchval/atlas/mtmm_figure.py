"""The multitrait-multimethod figure of the atlas (figures/mtmm.{png,pdf}; benchval.atlas.mtmm, docs/atlas.md).

Left: method x method, Campbell and Fiske's layout collapsed to its blocks: a cell is the median Spearman rho
of the heterotrait pairs of that method pair (the diagonal: heterotrait-monomethod, what a shared method
alone gives; off the diagonal: heterotrait-heteromethod), with the number of pairs; where the method pair
also holds one benchmark measured twice, the median of those monotrait pairs is printed below (``v``: the
validity diagonal off the method diagonal, the monotrait-monomethod value on it). Right: each of the four
blocks' median with its quartiles and number of pairs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.figures.drawing import plt
from benchval.atlas.mtmm import BLOCKS


def _matrix(blocks: pd.DataFrame, methods: list[str], monotrait: bool) -> tuple[np.ndarray, np.ndarray]:
    wanted = blocks["block"].str.startswith("monotrait" if monotrait else "heterotrait")
    median = np.full((len(methods), len(methods)), np.nan)
    count = np.zeros((len(methods), len(methods)), int)
    index = {m: i for i, m in enumerate(methods)}
    for row in blocks[wanted].itertuples(index=False):
        i, j = index[row.method_1], index[row.method_2]
        median[i, j] = median[j, i] = row.median_rho
        count[i, j] = count[j, i] = row.n_pairs
    return median, count


def _method_panel(axis, blocks: pd.DataFrame) -> None:
    methods = sorted(set(blocks["method_1"]) | set(blocks["method_2"]))
    hetero, n_hetero = _matrix(blocks, methods, monotrait=False)
    mono, n_mono = _matrix(blocks, methods, monotrait=True)
    image = axis.imshow(hetero, cmap="RdBu_r", vmin=-1, vmax=1)
    for i in range(len(methods)):
        for j in range(len(methods)):
            lines = [f"{hetero[i, j]:.2f} ({n_hetero[i, j]})"] if n_hetero[i, j] else []
            if n_mono[i, j]:
                lines.append(f"v {mono[i, j]:.2f} ({n_mono[i, j]})")
            text = "\n".join(lines)
            axis.text(j, i, text, ha="center", va="center", fontsize=6)
    labels = [m.replace("_", " ") for m in methods]  # names from benchval.atlas.methods.METHODS only
    axis.set_xticks(range(len(methods)), labels, rotation=45, ha="right", fontsize=7)
    axis.set_yticks(range(len(methods)), labels, fontsize=7)
    axis.set_title(
        "median rho of heterotrait pairs by method pair (pairs)\nv: median rho of monotrait pairs (pairs)", fontsize=9
    )
    plt.colorbar(image, ax=axis, fraction=0.04, label="median Spearman rho")


def _block_panel(axis, summary: pd.DataFrame) -> None:
    rows = summary.set_index("block").reindex(list(BLOCKS))
    y = np.arange(len(BLOCKS))[::-1]
    for position, (_, row) in zip(y, rows.iterrows()):
        if row["n_pairs"] > 0:
            axis.errorbar(
                row["median_rho"],
                position,
                xerr=[[row["median_rho"] - row["q1"]], [row["q3"] - row["median_rho"]]],
                fmt="o",
                color="C0",
                capsize=3,
            )
    axis.set_yticks(y, [f"{b}\n({int(n)} pairs)" for b, n in zip(BLOCKS, rows["n_pairs"].fillna(0))], fontsize=7)
    axis.axvline(0, color="grey", linewidth=0.5)
    axis.set_xlim(-1, 1)
    axis.set_xlabel("Spearman rho: median and quartiles", fontsize=8)
    axis.set_title("Campbell and Fiske's four blocks", fontsize=9)


def mtmm_figure(blocks: pd.DataFrame, summary: pd.DataFrame):
    """The figure (matplotlib), both panels drawn."""
    figure, axes = plt.subplots(1, 2, figsize=(16, 8), gridspec_kw={"width_ratios": [1.8, 1]})
    _method_panel(axes[0], blocks)
    _block_panel(axes[1], summary)
    figure.suptitle("Atlas pairs as a multitrait-multimethod matrix (mtmm.csv)", fontsize=10)
    figure.tight_layout()
    return figure


def draw_mtmm(blocks: pd.DataFrame, summary: pd.DataFrame, paths: list[str], dpi: int) -> None:
    """Draw the figure to every path of ``paths``."""
    figure = mtmm_figure(blocks, summary)
    for path in paths:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=dpi)
    plt.close(figure)
