"""Rule atlas_mtmm: the atlas pairs as a multitrait-multimethod matrix."""

from __future__ import annotations

import logging

import pandas as pd

from benchval.atlas.steps.atlas_common import write_table

log = logging.getLogger(__name__)


def write_mtmm(dpi: int, pairs_csv, methods_csv, table_csv, blocks_csv, paths: list[str]) -> None:
    """Rule atlas_mtmm (benchval.atlas.mtmm, benchval.atlas.mtmm_figure)."""
    from benchval.atlas.methods import load_methods
    from benchval.atlas.mtmm import block_summary, labelled_pairs, method_blocks
    from benchval.atlas.mtmm_figure import draw_mtmm

    pairs = pd.read_csv(pairs_csv)
    methods = load_methods(methods_csv, set(pairs["column_a"]) | set(pairs["column_b"]))
    labelled = labelled_pairs(pairs, methods)
    blocks, summary = method_blocks(labelled), block_summary(labelled)
    write_table(blocks, table_csv)
    write_table(summary, blocks_csv)
    draw_mtmm(blocks, summary, paths, dpi)
    log.info("mtmm: %s", summary[["block", "n_pairs", "median_rho"]].to_dict("records"))
