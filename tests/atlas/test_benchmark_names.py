"""Display names in the atlas's figures come from BenchBench's prettified names (benchval.atlas.benchmark_names)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from benchval.analysis.figures.drawing import plt
from benchval.atlas.benchmark_names import display_name, load_benchmark_names
from benchval.atlas.forest import draw_forest, forest_table
from benchval.plumbing.folders import default_mirror


def test_names_are_looked_up_case_insensitively_with_dashes_as_underscores(tmp_path):
    path = tmp_path / "names.json"
    path.write_text(json.dumps({"arena_elo": "LMSys Arena", "mt_bench": "MT-Bench"}))
    names = load_benchmark_names(path)
    assert display_name("arena_elo", names) == "LMSys Arena" and display_name("MT-bench", names) == "MT-Bench"
    assert display_name("LB_unknown_column", names) == "LB_unknown_column"  # not in the file: the id
    assert load_benchmark_names(None) == {}
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="expected a JSON object"):
        load_benchmark_names(path)


@pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
def test_the_mirror_names_the_default_criteria():
    names = load_benchmark_names(default_mirror() / "benchbench/prettified_bencmark_names.json")
    assert display_name("arena_elo", names) == "LMSys Arena" and display_name("arena_hard", names) == "Arena Hard"


def test_the_forest_plot_shows_display_names(tmp_path):
    table = pd.DataFrame(
        {
            "criterion": "arena_elo",
            "predictor": ["mt_bench", "hfv2_bbh", "x_id"],
            "n_models": 40,
            "rho": [0.8, 0.6, 0.2],
            "ci_low": [0.7, 0.4, -0.1],
            "ci_high": [0.9, 0.75, 0.45],
        }
    )
    names = {"arena_elo": "LMSys Arena", "mt_bench": "MT-Bench", "hfv2_bbh": "HFv2 BBH"}
    figure = draw_forest(forest_table(table, "arena_elo", 3), "arena_elo", 3, 0.95, "none", names)
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert [label.split("  (n=")[0].strip().split("  ")[-1] for label in labels] == ["x_id", "HFv2 BBH", "MT-Bench"]
    assert figure._suptitle.get_text().startswith("MT-Bench predicts LMSys Arena most surely: rho = 0.80")
    plt.close(figure)
