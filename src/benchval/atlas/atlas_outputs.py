"""The atlas's files of a run: its folder and the final files the main command builds (docs/atlas.md)."""

from __future__ import annotations

from collections.abc import Mapping

from benchval.plumbing.folders import RESULTS

ATLAS = f"{RESULTS}/atlas"


def forest_figures(config: Mapping) -> list[str]:
    """One forest plot per human-preference criterion, in every figure format."""
    return [
        f"{ATLAS}/figures/forest_{criterion}.{ext}"
        for criterion in config["atlas"]["human_preference"]["criteria"]
        for ext in config["analysis"]["figures"]["formats"]
    ]


def atlas_outputs(config: Mapping, studies: Mapping) -> list[str]:
    """Everything the atlas writes (rule publish depends on it, so the main command builds it), when the
    run builds an atlas study (``studies``: benchval.jobs.layout.Layout.studies, of atlas.study_tables): a
    config without an `atlas:` section or of other studies (the tiny test workflow), or one without a
    mirror, builds none of it."""
    tables = config["atlas"]["study_tables"] if config.get("atlas") else {}
    studies = sorted(set(tables) & set(studies))
    if not studies:
        return []
    formats = config["analysis"]["figures"]["formats"]
    return [
        f"{ATLAS}/pairs.csv",
        f"{ATLAS}/human_preference.csv",
        f"{ATLAS}/agreement_validity.csv",
        *(f"{ATLAS}/intervals/{study}.csv" for study in studies),
        *([f"{ATLAS}/open_llm_crosscheck.csv", f"{ATLAS}/report.md"] if "open_llm" in studies else []),
        *(f"{ATLAS}/figures/{stem}.{ext}" for stem in ("atlas_heatmap", "factor_structure", "mtmm") for ext in formats),
        f"{ATLAS}/forest.csv",
        *forest_figures(config),
        "results/explorer/index.html",
    ]
