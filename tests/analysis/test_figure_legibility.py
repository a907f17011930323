"""Every figure the default run writes, checked at its saved size: no overlapping labels, no type under
6 pt (benchval.analysis.figures.legibility). Figures are drawn from synthetic inputs shaped like the
default run's (the analysis chain's figures, the scoreboard, the atlas's forest plots and heatmap with
as many predictors and criteria as the real atlas, and names as long)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from benchval.analysis.figures.drawing import FigureOutput, plt
from benchval.analysis.figures.legibility import layout_problems
from benchval.analysis.scoreboard_figure import figure_scoreboard
from benchval.atlas.figure import criterion_cells, draw_heatmap
from benchval.atlas.forest import draw_forest, forest_table
from benchval.testing.analysis_in_one_process import run_analysis

CRITERIA = ["arena_elo", "arena_hard", "alphacaeval_v2lc", "MT-bench", "WB-Score", "decentralized_arena", "OC_arena"]


def test_the_check_rejects_small_type_and_overlapping_labels():
    figure, axis = plt.subplots(figsize=(3, 2))
    axis.text(0.5, 0.5, "a label", fontsize=9)
    axis.text(0.52, 0.5, "another label", fontsize=9)
    axis.text(0.1, 0.1, "tiny", fontsize=4)
    problems = layout_problems(figure, 100)
    plt.close(figure)
    assert any("overlap" in p and "a label" in p for p in problems), problems
    assert any("4.0 pt" in p for p in problems), problems
    figure, axis = plt.subplots(figsize=(3, 2))
    axis.text(0.1, 0.5, "a label", fontsize=9)
    axis.text(0.6, 0.1, "another", fontsize=9)
    assert layout_problems(figure, 100) == []
    plt.close(figure)


def test_the_old_heatmap_layout_is_rejected():
    """119 rows with rho, CI and n in each cell (the figure issue 36 replaced) fails the check."""
    figure, axis = plt.subplots(figsize=(1.7 * 7 + 3, 0.42 * 119 + 2))
    axis.imshow(np.zeros((119, 7)), aspect="auto")
    for i in range(119):
        for j in range(7):
            axis.text(j, i, "0.52*\n[0.31, 0.70] n=42", ha="center", va="center", fontsize=6)
    axis.set_yticks(range(119), [f"predictor_{i}" for i in range(119)], fontsize=7)
    assert layout_problems(figure, 150)
    plt.close(figure)


def _atlas_frames(beyond_g: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(1)
    predictors = [f"LB_Some_Long_Benchmark_Column_{i:03d}" for i in range(119)]
    rows = []
    for criterion in CRITERIA:
        for predictor in rng.choice(predictors, size=80, replace=False):
            rho = float(np.clip(rng.normal(0.5, 0.3), -0.95, 0.98))
            rows.append(
                {
                    "criterion": criterion,
                    "predictor": predictor,
                    "n_models": int(rng.integers(10, 120)),
                    "rho": rho,
                    "ci_low": rho - 0.2,
                    "ci_high": min(rho + 0.2, 1.0),
                    "p_fdr": 0.01,
                }
            )
    table = pd.DataFrame(rows)
    pairs = table.rename(columns={"criterion": "column_a", "predictor": "column_b"})
    pairs["leaderboard_a"] = pairs["column_a"]
    pairs["leaderboard_b"] = [f"leaderboard_{int(p[-3:]) % 30}" for p in pairs["column_b"]]
    if beyond_g:
        table["rho_beyond_g"] = table["rho"] - 0.3
        table["rho_beyond_g_ci_low"], table["rho_beyond_g_ci_high"] = table["rho"] - 0.5, table["rho"] - 0.1
        table["n_beyond_g"] = table["n_models"] - 2
        pairs["rho_beyond_g"] = pairs["rho"] - 0.3
        pairs["group_a"], pairs["group_b"] = (
            pairs["leaderboard_a"],
            [f"group_{int(p[-3:]) % 12}" for p in pairs["column_b"]],
        )
    return table, pairs


@pytest.mark.parametrize("beyond_g", [False, True])
def test_atlas_forest_plots_and_heatmap_are_legible(tmp_path, audited, beyond_g):
    table, pairs = _atlas_frames(beyond_g)
    for criterion in CRITERIA:
        forest = forest_table(table, criterion, 20)
        assert forest["in_figure"].sum() == 20 and len(forest) == 80
        figure = draw_forest(forest, criterion, 20, 0.95, "no rho_beyond_g column in human_preference.csv")
        texts = " ".join(t.get_text() for t in figure.findobj(plt.Text))
        assert ("not computed" in texts) is not beyond_g
        figure.savefig(tmp_path / f"forest_{criterion}.png", dpi=150)
        plt.close(figure)
    groups = draw_heatmap(criterion_cells(pairs, CRITERIA), CRITERIA, 0.05, 2, [str(tmp_path / "heatmap.png")], 150)
    assert len(groups) == (12 if beyond_g else 30)
    assert {path: problems for path, problems in audited.items() if problems} == {}


def test_analysis_and_scoreboard_figures_are_legible(tmp_path, audited, study_files):
    run_analysis(*study_files, {"n_bootstrap": 100, "seed": 3, "figures": {"formats": ["png"], "dpi": 150}}, tmp_path)
    models = [f"model-{i}" for i in range(3)]
    tasks = [f"task_name_{i}" for i in range(19)]
    board = pd.DataFrame(
        [
            {
                "model": m,
                "task": t,
                "label": t.replace("_", " "),
                "metric": metric,
                "value": 0.5,
                "ci_low": 0.4,
                "ci_high": 0.6,
                "chance": 0.25,
            }
            for metric in ("accuracy", "macro_f1")
            for t in tasks
            for m in models
        ]
    )
    figure_scoreboard(board, FigureOutput(tmp_path, ["png"], 150, "default"), 0.95)
    assert len(audited) >= 6
    assert {path: problems for path, problems in audited.items() if problems} == {}


def test_specification_curve_is_legible(tmp_path, audited, study, settings):
    """The robustness rule's figure, on the synthetic study (11 benchmarks x 7 downstream tasks: 120
    conclusions of a kind). A two-alternative grid: the figure's shape depends on the conclusions, not on
    the number of specifications."""
    from benchval.analysis.specification import grid_from_config, robustness_table
    from benchval.analysis.specification_figure import figure_specification_curve

    section = {"covariates": ["paper", "size_family_only"], "fdr_family": ["configured"], "models": ["pairwise"]}
    section = {**section, "ci_method": ["percentile"]}
    table = robustness_table(study, study.metrics, settings, grid_from_config(section, None))
    figure_specification_curve(table, FigureOutput(tmp_path, ["png"], 150, "synthetic"))
    assert len(audited) == 1
    assert {path: problems for path, problems in audited.items() if problems} == {}


def test_a_value_beyond_g_without_an_interval_is_drawn_hollow_and_said_so():
    table, _ = _atlas_frames(beyond_g=True)
    criterion = CRITERIA[0]
    forest = forest_table(table, criterion, 5)
    drawn = forest[forest["in_figure"]]
    bare = drawn.index[0]  # e.g. a partial on too few families for a clustered interval
    forest.loc[bare, ["rho_beyond_g_ci_low", "rho_beyond_g_ci_high"]] = np.nan
    figure = draw_forest(forest, criterion, 5, 0.95, "")
    beyond = figure.axes[1]
    hollow = [line for line in beyond.get_lines() if line.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))]
    assert len(hollow) == 1 and list(hollow[0].get_xdata()) == [forest.loc[bare, "rho_beyond_g"]]
    texts = [t.get_text() for t in figure.axes[2].get_yticklabels()]  # n beyond g: the right-hand axis
    assert sum(text.endswith(", no CI") for text in texts) == 1
    plt.close(figure)


def test_the_check_rejects_text_cut_off_at_the_figure_edge():
    """The old forest plot's margin text ("n=13, no CI" placed right of the last axes): clipped when saved."""
    figure, axis = plt.subplots(figsize=(4, 2))
    axis.set_xlim(-1.05, 1.05)
    axis.text(1.08, 0.5, "n=13, no CI", clip_on=False, fontsize=7)
    assert any("'n=13, no CI' is clipped" in p for p in layout_problems(figure, 100))
    assert not any("clipped" in p for p in layout_problems(figure, 100, bbox_inches="tight"))  # tight grows
    plt.close(figure)


def _one_group_forest(criterion="arena_elo"):
    table, _ = _atlas_frames(beyond_g=True)
    table = table[table["criterion"] == criterion].copy()
    table["ci_low"], table["ci_high"] = -0.9, 0.99  # every interval overlaps every other: one tie group
    table["ci_low"] = table["ci_low"] + np.linspace(0, 0.3, len(table))  # distinct lower bounds
    return forest_table(table, criterion, 20)


def test_forest_rows_follow_the_title_and_one_tie_group_is_not_printed():
    forest = _one_group_forest()
    assert forest["rank_range"].nunique() == 1  # one group of all: it separates nothing
    figure = draw_forest(forest, "arena_elo", 20, 0.95, "")
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert not any(label.startswith(forest["rank_range"].iloc[0]) for label in labels)
    drawn = forest[forest["in_figure"]].sort_values("ci_low")
    # bottom to top by the lower CI bound, as the title says; the best at the top
    assert [label.split("  (n=")[0] for label in labels] == list(drawn["predictor"])
    title = figure._suptitle.get_text()
    best = drawn.iloc[-1]
    assert title.startswith(f"{best['predictor'][:39]}") and "most surely" in title and "in that order" in title
    plt.close(figure)
    separated = pd.DataFrame(  # intervals that do not overlap: three tie groups, each printed
        {
            "criterion": "c",
            "predictor": ["a", "b", "x"],
            "n_models": 40,
            "rho": [0.9, 0.5, 0.1],
            "ci_low": [0.85, 0.4, 0.0],
            "ci_high": [0.95, 0.6, 0.2],
        }
    )
    figure = draw_forest(forest_table(separated, "c", 3), "c", 3, 0.95, "")
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["3  x  (n=40)", "2  b  (n=40)", "1  a  (n=40)"]
    plt.close(figure)
