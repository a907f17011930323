"""benchval.atlas.atlas_outputs: the atlas's final files, only when the run builds an atlas study."""

from __future__ import annotations

from benchval.atlas.atlas_outputs import atlas_outputs

CONFIG = {
    "analysis": {"figures": {"formats": ["png", "pdf"]}},
    "atlas": {"study_tables": {"open_llm": {}, "obsscaling": {}}, "human_preference": {"criteria": ["arena"]}},
}


def test_the_atlas_files_follow_its_studies():
    files = atlas_outputs(CONFIG, {"open_llm": {}, "default": {}})
    assert "results/atlas/intervals/open_llm.csv" in files and "results/atlas/report.md" in files
    assert "results/atlas/intervals/obsscaling.csv" not in files  # not a study of this run
    assert {"results/atlas/figures/forest_arena.png", "results/atlas/figures/mtmm.pdf"} <= set(files)
    without_open_llm = atlas_outputs(CONFIG, {"obsscaling": {}})
    assert "results/atlas/report.md" not in without_open_llm
    assert "results/atlas/intervals/obsscaling.csv" in without_open_llm


def test_no_atlas_study_or_no_atlas_section_builds_nothing():
    assert atlas_outputs(CONFIG, {"default": {}}) == []
    assert atlas_outputs({"analysis": CONFIG["analysis"]}, {"open_llm": {}}) == []
