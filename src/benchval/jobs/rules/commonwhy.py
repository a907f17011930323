"""Functions of workflow/rules/commonwhy.smk: the CommonWhy part's final files and what grounding reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from benchval.jobs.layout import (
    COMMONWHY_CONSTRUCTED,
    COMMONWHY_CONSTRUCTION_SUMMARY,
    COMMONWHY_GROUNDING_REPORT,
    COMMONWHY_PUBLISHED,
    COMMONWHY_PUBLISHED_REPORT,
    Layout,
)
from benchval.jobs.rule_files import content_digests


def outputs() -> list[str]:
    """Final files of the CommonWhy part (for the default target)."""
    return [
        COMMONWHY_PUBLISHED,
        COMMONWHY_PUBLISHED_REPORT,
        COMMONWHY_CONSTRUCTED,
        COMMONWHY_GROUNDING_REPORT,
        COMMONWHY_CONSTRUCTION_SUMMARY,
    ]


def ground_inputs(settings: Mapping, layout: Layout, raw: str, ancient: Callable) -> dict:
    """The inputs of rule commonwhy_ground (``settings``: config["commonwhy"]; ``raw``: the CommonWhy
    folder of the mirror); files of annotations and rules wrapped by Snakemake's ``ancient``, their content a
    param (ground_files, benchval.jobs.rule_files)."""
    inputs = {
        "rule_entities": f"{raw}/inference_rule_entities.json",
        "labeled_rules": f"{raw}/LabeledRules.json",
        "annotations": ancient(list(settings["annotations"])),
        **layout.kg_store_inputs,
    }
    if settings["user_rules"]:
        inputs["user_rules"] = ancient(settings["user_rules"])
    return inputs


def ground_files(settings: Mapping, root: str | Path) -> dict[str, str]:
    """The annotation and rule files ground reads (its ancient inputs): their content, a param."""
    files = [*settings["annotations"], *([settings["user_rules"]] if settings["user_rules"] else [])]
    return content_digests(files, root)


def litwd1k_dir(first_input: str) -> str:
    """The LitWD1K folder of the mirror, from rule kg_store's first input (its first file, INPUT_FILES[0])."""
    from benchval.commonwhy.rdf_convert import INPUT_FILES

    return str(first_input).removesuffix("/" + INPUT_FILES[0])
