"""Functions of workflow/rules/items.smk: the item-level validity studies' files (config `items:`)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from benchval.jobs.layout import Layout
from benchval.jobs.reruns import canonical, workdir_relative

ITEMS = "results/items"
ITEM_PAIRED_FILES = ("paired_comparisons.csv", "rank_resolution.csv")
ITEM_FIGURE_STEMS = ("validity_curve", "item_map", "snr_validity")  # rule items_figures, per study


def items(config: Mapping) -> Mapping:
    """The config's `items:` section ({} without one)."""
    return config.get("items") or {}


def item_source(config: Mapping, source: str) -> Mapping:
    return items(config)["sources"][source]


def item_source_path(config: Mapping, layout: Layout, source: str) -> str:
    """The source's folder, its `{mirror}` the mirror relative to the working directory."""
    path = item_source(config, source).get("path", "")
    return path.replace("{mirror}", workdir_relative(layout.raw_root))


def item_source_files(config: Mapping, layout: Layout):
    """The input function of the raw files a source reads (mirror files: an edit reruns its responses)."""

    def files(wildcards) -> list[str]:
        source = item_source(config, wildcards.source)
        folder = Path(item_source_path(config, layout, wildcards.source))
        if source["reader"] == "nlu_test_sets":
            return [str(folder / f"{d}_irt_all_coded.csv") for d in source["datasets"]]
        if source["reader"] == "mmlu_pro_outputs":
            return sorted(str(p) for p in folder.glob("model_outputs_*_5shots.zip"))
        return sorted(str(p) for pattern in source["paths"] for p in Path(".").glob(pattern))

    return files


def item_study(config: Mapping, study: str) -> Mapping:
    return items(config)["studies"][study]


def item_study_irt(config: Mapping, study: str) -> dict[str, str]:
    """{benchmark: its IRT folder} of the study's benchmarks."""
    spec = item_study(config, study)
    return {b: f"{ITEMS}/{spec['source']}/irt/{b}" for b in spec["benchmarks"]}


def item_study_inputs(config: Mapping):
    """The input function of rule items_study (responses, IRT fits and, for atlas criteria, the atlas's)."""

    def inputs(wildcards) -> dict:
        spec = item_study(config, wildcards.study)
        found = {
            "responses": f"{ITEMS}/{spec['source']}/responses.parquet",
            "recovery": f"{ITEMS}/irt_recovery.csv",
            "irt": [
                f"{d}/{name}.csv"
                for d in item_study_irt(config, wildcards.study).values()
                for name in ("item_params", "fit", "abilities")
            ],
        }
        if spec["criteria"]["kind"] == "atlas":
            found.update(
                names="results/atlas/registry/names.csv",
                models="results/atlas/registry/models.csv",
                cells="results/atlas/cells.csv",
            )
        return found

    return inputs


def headline_irt(config: Mapping, study: str) -> str:
    spec = item_study(config, study)
    return f"{ITEMS}/{spec['source']}/irt/{spec['headline']['benchmark']}/item_params.csv"


def item_report_fits(config: Mapping) -> dict[tuple[str, str], str]:
    """{(source, benchmark): its IRT fit file} of every study's benchmarks."""
    return {
        (spec["source"], b): f"{ITEMS}/{spec['source']}/irt/{b}/fit.csv"
        for spec in items(config).get("studies", {}).values()
        for b in spec["benchmarks"]
    }


def outputs(config: Mapping, layout: Layout) -> list[str]:
    """The item studies' report (with the open_llm re-evaluation table) and figures (the default target
    includes them); none without an `items:` section or without a mirror (the sources are mirror files)."""
    if not items(config).get("studies"):
        return []
    if layout.mirror is None:
        print("items: mirror: null - the item studies are not built", file=sys.stderr)
        return []
    formats = config["analysis"]["figures"]["formats"]
    paired = [f"{ITEMS}/{source}/{name}" for source in items(config)["sources"] for name in ITEM_PAIRED_FILES]
    return [f"{ITEMS}/report.md", f"{ITEMS}/reevaluation_snr.csv", *paired] + [
        f"{ITEMS}/{study}/figures/{stem}.{ext}"
        for study in items(config)["studies"]
        for stem in ITEM_FIGURE_STEMS
        for ext in formats
    ]


def paired_comparison(config: Mapping, source: str) -> object:
    """What items_paired compares in one source: its reader, its configured pairs, and (nlu_test_sets)
    the checkpoint that stands for each encoder; only this source's keys, so other edits rerun nothing."""
    paired = items(config).get("paired", {})
    reader = item_source(config, source)["reader"]
    chosen = {"reader": reader, "pairs": paired.get("pairs", {}).get(source, [])}
    if reader == "nlu_test_sets":
        chosen["checkpoint"] = str(paired.get("checkpoint", "best"))
    return canonical(chosen)


def irt_tasks(config: Mapping, source: str) -> list[str]:
    """The tasks of a source some study uses as a benchmark (each gets its IRT fits)."""
    studies = items(config).get("studies", {}).values()
    return sorted({b for spec in studies if spec["source"] == source for b in spec["benchmarks"]})
