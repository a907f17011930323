"""The item study's figures (rule items_figures; docs/items.md).

* ``validity_curve``: per (benchmark, criterion) panel, the criterion rho of each subset score against k
  (random: median over draws; every interval from resampled families, random draws included), the full
  benchmark's rho and interval as a band; each panel's y axis spans its own data; the title states the
  k = 100 verdicts (benchval.items.curve).
* ``snr_validity``: each benchmark's SNR (log scale) against its validity (median full rho over the
  criteria), both with family-resampled intervals; the title gives the Spearman relation and its interval.
* ``item_map``: the headline benchmark's items, 2PL difficulty x discrimination, coloured by each item's
  Spearman rho with the headline criterion (grey: every model scored the item alike).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from benchval.analysis.figures.drawing import save  # noqa: E402
from benchval.items.criteria import headline_criterion  # noqa: E402

import textwrap  # noqa: E402

STYLE = {
    "random": ("tab:grey", "o"),
    "irt": ("tab:blue", "s"),
    "anchor": ("tab:purple", "D"),
    "criterion": ("tab:red", "^"),
}
LABEL = {
    "random": "random",
    "irt": "IRT max-information",
    "anchor": "anchor points (IRT estimate)",
    "criterion": "criterion-chosen (out of family)",
}
METHODS = ("random", "irt", "anchor", "criterion")


def _panel(ax, curve: pd.DataFrame, title: str) -> None:
    full = curve[curve["method"] == "full"].iloc[0]
    ks = curve[curve["method"] != "full"]
    positions = {k: i for i, k in enumerate(dict.fromkeys(ks["k"]))}
    ax.axhspan(full["ci_low"], full["ci_high"], color="tab:green", alpha=0.12, lw=0)
    ax.axhline(full["rho"], color="tab:green", lw=1.2, label="full benchmark (all items)")
    for offset, method in zip((-0.24, -0.08, 0.08, 0.24), METHODS):
        rows = ks[(ks["method"] == method) & ks["rho"].notna()]
        x = rows["k"].map(positions).to_numpy(float) + offset
        color, marker = STYLE[method]
        ax.errorbar(
            x,
            rows["rho"],
            yerr=[rows["rho"] - rows["ci_low"], rows["ci_high"] - rows["rho"]],
            fmt=marker,
            color=color,
            ms=4,
            lw=1,
            capsize=2,
            label=LABEL[method],
        )
    ax.set_xticks(range(len(positions)), list(positions))
    ax.set_title(title, fontsize=8)
    spans = pd.concat([curve["ci_low"], curve["ci_high"], curve["rho"]]).dropna()
    low, high = float(spans.min()), float(spans.max())
    pad = max(0.05, 0.08 * (high - low))
    ax.set_ylim(max(-1.02, low - pad), min(1.02, high + pad))
    if low - pad < 0 < high + pad:
        ax.axhline(0, color="black", lw=0.5)


def curve_title(curve: pd.DataFrame) -> str:
    """The point of the figure, from the k = 100 verdicts: how many subsets keep or gain the validity."""
    rows = curve[(curve["k"] == "100") & (curve["method"] != "full")]
    if rows.empty or "verdict" not in rows:
        return "Validity of item subsets against the full benchmark"
    counts = rows["verdict"].value_counts()
    return (
        f"At k = 100, {counts.get('keeps', 0)} of {len(rows)} subsets keep the full benchmark's validity, "
        f"{counts.get('gains', 0)} gain, {counts.get('loses', 0)} lose, {counts.get('undecided', 0)} undecided "
        "(keep / gain: the family-resampled interval and the permutation null agree; a kept subset's interval "
        "can still be wide)"
    )


def validity_curve_figure(curve: pd.DataFrame, out_dir: Path, formats, dpi: int) -> list[Path]:
    pairs = list(dict.fromkeys(zip(curve["benchmark"], curve["criterion"])))
    benchmarks = list(dict.fromkeys(b for b, _ in pairs))
    criteria = list(dict.fromkeys(c for _, c in pairs))
    figure, axes = plt.subplots(
        len(benchmarks), len(criteria), figsize=(2.6 * len(criteria) + 1, 2.2 * len(benchmarks) + 0.8), squeeze=False
    )
    for i, benchmark in enumerate(benchmarks):
        for j, criterion in enumerate(criteria):
            rows = curve[(curve["benchmark"] == benchmark) & (curve["criterion"] == criterion)]
            _panel(axes[i, j], rows, f"{benchmark} -> {criterion}")
            if j == 0:
                axes[i, j].set_ylabel("Spearman rho with criterion", fontsize=7)
            if i == len(benchmarks) - 1:
                axes[i, j].set_xlabel("k items", fontsize=7)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=3, fontsize=7, frameon=False)
    width = max(60, int(12 * figure.get_size_inches()[0]))
    figure.suptitle(textwrap.fill(curve_title(curve), width), fontsize=9)
    figure.tight_layout(rect=(0, 0.07, 1, 1))
    return save(figure, out_dir, "validity_curve", formats, dpi)


def snr_validity_figure(table: pd.DataFrame, relation: pd.DataFrame, out_dir: Path, formats, dpi: int):
    """``table``: snr_validity.csv; ``relation``: snr_relation.csv."""
    figure, ax = plt.subplots(figsize=(6.0, 4.4))
    ax.errorbar(
        table["snr"],
        table["validity"],
        xerr=[table["snr"] - table["snr_ci_low"], table["snr_ci_high"] - table["snr"]],
        yerr=[table["validity"] - table["validity_ci_low"], table["validity_ci_high"] - table["validity"]],
        fmt="o",
        color="tab:blue",
        ms=5,
        lw=1,
        capsize=2,
    )
    ax.set_xscale("log")
    ax.set_xlabel("signal-to-noise ratio (sd of model scores / noise; log scale)")
    ax.set_ylabel("validity: median Spearman rho with the criteria")
    snr = relation[relation["relation"] == "snr vs validity"].iloc[0]
    if np.isfinite(snr["spearman_rho"]):
        point = (
            f"Across {int(snr['n_benchmarks'])} benchmarks, SNR and validity: Spearman rho {snr['spearman_rho']:.2f} "
            f"[{snr['ci_low']:.2f}, {snr['ci_high']:.2f}] (models resampled by family)"
        )
        if snr["ci_low"] <= 0 <= snr["ci_high"]:
            point += f": the interval holds 0, {int(snr['n_benchmarks'])} benchmarks cannot show a relation"
    else:
        point = f"SNR and validity of {int(snr['n_benchmarks'])} benchmark(s): too few for a relation"
    ax.set_title(textwrap.fill(point, 70), fontsize=9)
    ax.margins(0.15)
    figure.tight_layout()
    _label_points(ax, table)
    return save(figure, out_dir, "snr_validity", formats, dpi)


#: where a point's label may go (offset points from the point), tried in this order
LABEL_OFFSETS = ((4, 5), (4, -11), (-6, 5), (-6, -11), (4, 15), (4, -21), (-6, 15), (-6, -21))


def _label_points(ax, table: pd.DataFrame) -> None:
    """Each benchmark's name beside its point, at the first of LABEL_OFFSETS where it overlaps no label already
    placed (the last offset where every place is taken)."""
    renderer = ax.figure.canvas.get_renderer()
    placed = []
    for row in table.sort_values("snr").itertuples():
        for dx, dy in LABEL_OFFSETS:
            label = ax.annotate(
                str(row.benchmark),
                (row.snr, row.validity),
                xytext=(dx, dy),
                textcoords="offset points",
                fontsize=7,
                ha="left" if dx > 0 else "right",
            )
            box = label.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed) or (dx, dy) == LABEL_OFFSETS[-1]:
                placed.append(box)
                break
            label.remove()


def item_map_figure(items: pd.DataFrame, validity: pd.DataFrame, title: str, out_dir: Path, formats, dpi: int):
    """``items``: 2PL item_id, difficulty, discrimination; ``validity``: item_id, rho (one criterion)."""
    merged = items.merge(validity[["item_id", "rho"]], on="item_id", how="inner")
    figure, ax = plt.subplots(figsize=(6.5, 4.8))
    undefined = merged["rho"].isna()
    colour_span = float(np.nanmax(np.abs(merged["rho"]))) if (~undefined).any() else 1.0  # the data's, around 0
    ax.scatter(
        merged.loc[undefined, "difficulty"], merged.loc[undefined, "discrimination"], s=4, color="lightgrey", lw=0
    )
    points = ax.scatter(
        merged.loc[~undefined, "difficulty"],
        merged.loc[~undefined, "discrimination"],
        c=merged.loc[~undefined, "rho"],
        cmap="RdBu_r",
        vmin=-colour_span,
        vmax=colour_span,
        s=5,
        lw=0,
    )
    figure.colorbar(points, ax=ax, label="item's Spearman rho with the criterion")
    ax.set_xlabel("2PL difficulty b")
    ax.set_ylabel("2PL discrimination a")
    spread = merged[["difficulty", "discrimination"]].abs().quantile(0.99).to_numpy()
    ax.set_xlim(-spread[0] * 1.1, spread[0] * 1.1)
    ax.set_ylim(min(0.0, float(np.nanmin(merged["discrimination"]))), spread[1] * 1.1)
    note = f"{title} ({len(merged)} items; axes cut at the 99th percentile of |value|)"
    ax.set_title(textwrap.fill(note, 70), fontsize=9)
    figure.tight_layout()
    return save(figure, out_dir, "item_map", formats, dpi)


def write_figures(study_dir: str, irt_items_csv: str, headline: dict, out_dir: str, formats, dpi: int) -> None:
    curve = pd.read_csv(Path(study_dir) / "validity_curve.csv", dtype={"k": str})
    validity = pd.read_csv(Path(study_dir) / "item_validity.csv", dtype={"item_id": str})
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    validity_curve_figure(curve, out, formats, dpi)
    snr_validity_figure(
        pd.read_csv(Path(study_dir) / "snr_validity.csv"),
        pd.read_csv(Path(study_dir) / "snr_relation.csv"),
        out,
        formats,
        dpi,
    )
    items = pd.read_csv(irt_items_csv, dtype={"item_id": str})
    items = items[items["irt_model"] == "2PL"]  # the map shows discrimination: the 2PL
    criterion = headline_criterion(study_dir, headline)
    chosen = validity[(validity["benchmark"] == headline["benchmark"]) & (validity["criterion"] == criterion)]
    item_map_figure(items, chosen, f"{headline['benchmark']} -> {criterion}", out, formats, dpi)
