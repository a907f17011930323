"""Rule atlas_heatmap."""

from __future__ import annotations

import pandas as pd


def write_heatmap(atlas: dict, alpha: float, dpi: int, pairs_csv, paths: list[str]) -> None:
    """Rule atlas_heatmap (benchval.atlas.figure)."""
    from benchval.atlas.figure import criterion_cells, draw_heatmap

    criteria = atlas["human_preference"]["criteria"]
    cells = criterion_cells(pd.read_csv(pairs_csv), criteria)
    draw_heatmap(cells, criteria, alpha, int(atlas["heatmap_min_criteria"]), paths, dpi)
