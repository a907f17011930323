"""Functions of workflow/rules/atlas.smk: the atlas's mirror and repository files and its outputs."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benchval.jobs.layout import Layout
from benchval.jobs.reruns import workdir_relative

ATLAS = "results/atlas"


def mirror_path(layout: Layout, template: str) -> str:
    """A mirror path from the working directory (the mirror resolved as every rule resolves it)."""
    from benchval.atlas.sources import expand

    return workdir_relative(expand(template, layout.raw_root))


def benchmark_names_input(config: dict, layout: Layout) -> dict[str, str]:
    """``{"names": path}`` of BenchBench's prettified names (config ``atlas.benchmark_names``), {} without."""
    template = config["atlas"].get("benchmark_names")
    return {"names": mirror_path(layout, template)} if template else {}


def repo_path(path: str | Path, root: str | Path) -> str:
    """A path of the repository ``root`` (config/atlas/...), from the working directory (--directory may differ)."""
    return workdir_relative(Path(root) / path)


def source_files(config: Mapping, root: str | Path) -> dict[str, str]:
    """The repository files rule atlas_sources reads (config/atlas/: rules, overrides, display names)."""
    return {key: repo_path(config["atlas"][key], root) for key in ("rules", "overrides", "display_names")}


def method_file(config: Mapping, root: str | Path) -> str:
    """The reviewed method table (atlas.methods) the rules that compute g or rank claims read."""
    return repo_path(config["atlas"].get("methods", "config/atlas/column_methods.csv"), root)


def identity_files(config: Mapping, root: str | Path) -> dict[str, str]:
    """The repository files rule atlas_identity reads: the sample, the first and the blind labelling, the
    disagreements."""
    identity = config["atlas"]["identity"]
    return {
        "labels": repo_path(identity["sample"], root),
        "labels_first": repo_path(identity["labellings"]["first"], root),
        "labels_blind": repo_path(identity["labellings"]["blind"], root),
        "disagreements": repo_path(identity["disagreements"], root),
        "targeted": repo_path(identity["targeted"]["labels"], root),
        "precision": repo_path(identity["precision"]["labels"], root),
    }


def identity_digested(config: Mapping, root: str | Path) -> list[str]:
    """Every labelling (the check reads each; the first and the blind one are the inputs), the sample and
    the disagreements: the files whose content is rule atlas_identity's param."""
    identity = config["atlas"]["identity"]
    files = identity_files(config, root)
    return [
        files["labels"],
        *(repo_path(path, root) for path in identity["labellings"].values()),
        files["disagreements"],
        files["targeted"],
        files["precision"],
    ]


def benchbench_files(config: Mapping, layout: Layout) -> list[str]:
    """Every leaderboard csv of the BenchBench folders (atlas.benchbench_dirs) of the mirror."""
    return sorted(
        str(p) for d in config["atlas"]["benchbench_dirs"] for p in Path(mirror_path(layout, d)).glob("*.csv")
    )


def forest_figures(config: Mapping) -> list[str]:
    """One forest plot per human-preference criterion, in every figure format."""
    return [
        f"{ATLAS}/figures/forest_{criterion}.{ext}"
        for criterion in config["atlas"]["human_preference"]["criteria"]
        for ext in config["analysis"]["figures"]["formats"]
    ]


def outputs(config: Mapping, studies: Mapping) -> list[str]:
    """Everything the atlas writes (rule publish depends on it, so the main command builds it), when the
    run builds an atlas study (``studies``: benchval.jobs.layout.Layout.studies, of atlas.study_tables): a
    config of other studies (the tiny test workflow), or one without a mirror, builds none of it."""
    studies = sorted(set((config.get("atlas") or {}).get("study_tables", {})) & set(studies))
    if not studies:
        return []
    return [
        f"{ATLAS}/pairs.csv",
        f"{ATLAS}/human_preference.csv",
        f"{ATLAS}/agreement_validity.csv",
        *(f"{ATLAS}/intervals/{study}.csv" for study in studies),
        *([f"{ATLAS}/open_llm_crosscheck.csv", f"{ATLAS}/report.md"] if "open_llm" in studies else []),
        *(f"{ATLAS}/figures/atlas_heatmap.{ext}" for ext in config["analysis"]["figures"]["formats"]),
        *(f"{ATLAS}/figures/factor_structure.{ext}" for ext in config["analysis"]["figures"]["formats"]),
        *(f"{ATLAS}/figures/mtmm.{ext}" for ext in config["analysis"]["figures"]["formats"]),
        f"{ATLAS}/forest.csv",
        *forest_figures(config),
        "results/explorer/index.html",
    ]
