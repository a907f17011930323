"""Rule atlas_forest."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

log = logging.getLogger(__name__)


def write_forest(
    atlas: dict, level: float, dpi: int, table_csv, forest_csv, figure_paths: list[str], names_json=None
) -> pd.DataFrame:
    """Rule atlas_forest (benchval.atlas.forest): forest.csv and, per criterion, its figure in every format
    (``figure_paths``: ``.../forest_<criterion>.<fmt>``); ``names_json``: BenchBench's prettified names."""
    from benchval.analysis.figures.drawing import plt
    from benchval.atlas.benchmark_names import load_benchmark_names
    from benchval.atlas.forest import draw_forest, forest_table, has_beyond_g

    names = load_benchmark_names(names_json)
    table = pd.read_csv(table_csv)
    top_k = int(atlas["forest_top_k"])
    reason = "" if has_beyond_g(table) else f"no rho_beyond_g column in {Path(table_csv).name}"
    forests = []
    for criterion in atlas["human_preference"]["criteria"]:
        forest = forest_table(table, criterion, top_k)
        forests.append(forest)
        mine = [p for p in figure_paths if Path(p).stem == f"forest_{criterion}"]
        figure = draw_forest(forest, criterion, top_k, level, reason, names)
        for path in mine:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            # tight: the right-hand n labels of a twinned axis are not all in the constrained layout
            figure.savefig(
                path, dpi=dpi, bbox_inches="tight", metadata={"Date": None} if path.endswith(".pdf") else None
            )
        plt.close(figure)
    every = pd.concat(forests, ignore_index=True)
    every.to_csv(forest_csv, index=False)
    log.info(
        "forest plots of %d criteria (%d files); %d predictor rows in %s, %d drawn; rho beyond g: %s",
        len(forests),
        len(figure_paths),
        len(every),
        forest_csv,
        int(every["in_figure"].sum()),
        reason or "drawn",
    )
    return every
