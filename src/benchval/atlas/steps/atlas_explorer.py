"""Rule atlas_explorer."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

log = logging.getLogger(__name__)


def write_explorer_page(atlas: dict, level: float, inputs: dict[str, str], page: str) -> None:
    """Rule atlas_explorer (benchval.atlas.explorer): the page, linking to every input table."""
    from benchval.atlas.explorer import relative_links, write_explorer

    links = relative_links(page, {f"{name}.csv": path for name, path in inputs.items()})
    write_explorer(
        pd.read_csv(inputs["human_preference"]),
        pd.read_csv(inputs["cells"]),
        pd.read_csv(inputs["models"]),
        atlas["human_preference"]["criteria"],
        int(atlas["forest_top_k"]),
        level,
        links,
        page,
    )
    log.info("explorer %s: %.1f MB, links %s", page, Path(page).stat().st_size / 1e6, sorted(links.values()))
