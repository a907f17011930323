"""The legibility check (benchval.analysis.figures.legibility) on the figures tests/analysis/test_figure_legibility.py
does not draw: the item studies' validity curve, SNR-vs-validity and item map, the atlas's factor structure and
CommonWhy's Table 2 figure. Each is drawn from synthetic inputs shaped like the default run's (5 benchmarks x 4
criteria x 6 subset sizes, 6 benchmarks with SNR, 600 items, 12 leaderboard columns, 3 systems x 2 splits) and
checked at its saved size: no overlapping labels, no type under 6 pt."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchval.analysis.figures.legibility import layout_problems
from benchval.atlas.factor_structure import draw_factor_figure
from benchval.commonwhy.eval.table2_results import MEASURES, plot_results
from benchval.items.figures import item_map_figure, snr_validity_figure, validity_curve_figure

BENCHMARKS = ["hellaswag", "winogrande", "piqa", "socialiqa", "commonsenseqa"]
CRITERIA = ["mctaco", "mutual", "cosmosqa", "quail"]
METHODS = ["random", "irt", "anchor", "criterion"]


def _curve(rng) -> pd.DataFrame:
    rows = []
    for benchmark in BENCHMARKS:
        for criterion in CRITERIA:
            full = float(rng.uniform(0.2, 0.8))
            rows.append(dict(benchmark=benchmark, criterion=criterion, method="full", k="all", rho=full))
            for k in ("10", "25", "50", "100", "200"):
                for method in METHODS:
                    rho = float(np.clip(full + rng.normal(0, 0.2), -0.9, 0.95))
                    verdict = rng.choice(["keeps", "loses", "undecided", "gains"])
                    rows.append(
                        dict(benchmark=benchmark, criterion=criterion, method=method, k=k, rho=rho, verdict=verdict)
                    )
    curve = pd.DataFrame(rows)
    curve["ci_low"], curve["ci_high"] = curve["rho"] - 0.3, np.minimum(curve["rho"] + 0.3, 1.0)
    return curve


def test_item_study_figures_are_legible(tmp_path, audited):
    rng = np.random.default_rng(7)
    validity_curve_figure(_curve(rng), tmp_path, ["png"], 150)
    snr = pd.DataFrame({"benchmark": BENCHMARKS + ["mmlu_pro"], "snr": [14.2, 4.3, 2.8, 4.7, 6.2, 30.4]})
    snr["snr_ci_low"], snr["snr_ci_high"] = snr["snr"] * 0.5, snr["snr"] * 1.4
    snr["validity"] = [0.55, 0.61, 0.48, 0.52, 0.58, 0.7]
    snr["validity_ci_low"], snr["validity_ci_high"] = snr["validity"] - 0.2, snr["validity"] + 0.15
    relation = pd.DataFrame(
        [{"relation": "snr vs validity", "spearman_rho": 0.9, "ci_low": -0.5, "ci_high": 1.0, "n_benchmarks": 6}]
    )
    snr_validity_figure(snr, relation, tmp_path, ["png"], 150)
    items = pd.DataFrame(
        {
            "item_id": [str(i) for i in range(600)],
            "difficulty": rng.normal(0, 1.5, 600),
            "discrimination": rng.gamma(2, 0.6, 600),
        }
    )
    validity = pd.DataFrame({"item_id": items["item_id"], "rho": rng.uniform(-0.6, 0.6, 600)})
    item_map_figure(items, validity, "hellaswag -> mctaco", tmp_path, ["png"], 150)
    assert len(audited) == 3
    assert {path: problems for path, problems in audited.items() if problems} == {}


def test_atlas_factor_figure_is_legible(tmp_path, audited):
    columns = [f"HFV2_Some_Benchmark_Column_{i}" for i in range(12)]
    scree = pd.DataFrame(
        {"factor": range(1, 13), "variance_explained": np.linspace(0.71, 0.0, 12), "n_models": 117, "n_columns": 12}
    )
    loading = np.linspace(0.95, 0.4, 12)
    loadings = pd.DataFrame(
        {"column": columns, "loading_1": loading, "beyond_factor_1": 1 - loading**2, "uniqueness": 1 - loading**2 * 0.9}
    )
    draw_factor_figure(scree, loadings, [str(tmp_path / "factor_structure.png")], 150)
    assert list(audited) == [str(tmp_path / "factor_structure.png")]
    assert {path: problems for path, problems in audited.items() if problems} == {}


def test_commonwhy_table2_figure_is_legible(tmp_path, audited):
    rng = np.random.default_rng(3)
    systems = ["gemma3-270m", "qwen2.5-coder-0.5b", "smollm2-135m"]
    rows = [
        {"system": system, "split": split, **{column: float(rng.uniform(0, 1)) for column in MEASURES}}
        for system in systems
        for split in ("head", "longtail")
    ]
    results = pd.DataFrame(rows).assign(factscore_correct=np.nan)
    plot_results(results, tmp_path / "table2.png", "CommonWhy Table 2: constructed questions, 3 systems")
    assert {path: problems for path, problems in audited.items() if problems} == {}


def test_the_check_fails_an_item_map_with_overlapping_titles(tmp_path):
    """The check is not vacuous on these figure types: two long titles drawn on one spot are reported."""
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(4, 3))
    axis.set_title("hellaswag -> mctaco, item map " * 2, fontsize=9)
    axis.text(0.0, 1.02, "a second title on the first " * 2, transform=axis.transAxes, fontsize=9)
    assert layout_problems(figure, 150)
    plt.close(figure)


@pytest.mark.parametrize("study", ["open_llm", "obsscaling"])
def test_specification_curve_is_legible(tmp_path, audited, study):
    """The specification curve drawn from the default run's own table of that study (tests/analysis/data/,
    written by rule specification_robustness on 2026-12-06)."""
    from benchval.analysis.figures.drawing import FigureOutput
    from benchval.analysis.specification_figure import figure_specification_curve

    table = pd.read_csv(Path(__file__).parent / "data" / f"specification_robustness_{study}.csv")
    figure_specification_curve(table, FigureOutput(tmp_path, ["png"], 150, study))
    assert len(audited) == 1
    assert {path: problems for path, problems in audited.items() if problems} == {}
