"""Rule atlas_heatmap."""

from __future__ import annotations

import pandas as pd


def write_heatmap(atlas: dict, alpha: float, dpi: int, pairs_csv, paths: list[str], names_json=None) -> None:
    """Rule atlas_heatmap (benchval.atlas.figure); ``names_json``: BenchBench's prettified names (display)."""
    from benchval.atlas.benchmark_names import load_benchmark_names
    from benchval.atlas.figure import criterion_cells, draw_heatmap

    criteria = atlas["human_preference"]["criteria"]
    cells = criterion_cells(pd.read_csv(pairs_csv), criteria)
    names = load_benchmark_names(names_json)
    draw_heatmap(cells, criteria, alpha, int(atlas["heatmap_min_criteria"]), paths, dpi, names)
