"""Functions of workflow/rules/analysis.smk (and lmeval.smk's study source): where a study's files are."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from benchval.analysis.outputs import TESTED_TABLES
from benchval.jobs.layout import STUDY_TABLE, UNADJUSTED_TABLE, Layout, fill
from benchval.jobs.reruns import workdir_relative
from benchval.jobs.rule_files import content_digests

#: Figure 4 draws estimates and CIs, no significance: it reads the unadjusted table, so that editing
#: analysis.fdr does not redraw it (Figures 1 and 2 star significance and read the adjusted tables).
FIGURES_FROM_UNADJUSTED = frozenset({"fig4_axis_tests"})


def step_file(name: str) -> str:
    """Where a statistic step writes table `name` (p-values unadjusted until the FDR step)."""
    return fill(UNADJUSTED_TABLE if name in TESTED_TABLES else STUDY_TABLE, name=name)


def figure_table(stem: str, name: str) -> str:
    """The table `name` figure `stem` reads: the unadjusted one for FIGURES_FROM_UNADJUSTED's tested tables."""
    unadjusted = stem in FIGURES_FROM_UNADJUSTED and name in TESTED_TABLES
    return fill(UNADJUSTED_TABLE if unadjusted else STUDY_TABLE, name=name)


def study_source(layout: Layout) -> Callable:
    """The input function of an imported study's source file or directory (mirror expanded), relative to the
    working directory (rules import_score_table and lmeval_item_intervals)."""

    def source(wildcards) -> str:
        from benchval.analysis.study_import import expand_path

        return workdir_relative(expand_path(layout.studies[wildcards.study]["path"], layout.mirror))

    return source


def family_rules(layout: Layout, study: str) -> list[str]:
    """An lm_eval study's model-registry rules file: an ancient input, its content a param
    (family_rules_content), so that editing it reruns the import and a fresh clone does not."""
    rules = layout.studies[study].get("family_rules")
    return [rules] if rules else []


def family_rules_content(layout: Layout, root: str | Path) -> Callable:
    """The param function of the study's rules file's content digest (``root``: the repository)."""
    return lambda wildcards: content_digests(family_rules(layout, wildcards.study), root)
