"""The ``analysis:`` config section as a typed object. The defaults and the allowed values are the
schema's (workflow/schemas/analysis.schema.yaml), filled in here; nothing in this module restates them."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache

import yaml
from snakemake.utils import validate

from benchval.plumbing.config import section_defaults
from benchval.plumbing.folders import REPO_ROOT

SCHEMA = REPO_ROOT / "workflow" / "schemas" / "analysis.schema.yaml"


@cache
def _schema() -> dict:
    return yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))


#: every test kind the analysis produces (the schema's enum of ``fdr.families[].tests``)
TEST_KINDS = tuple(
    _schema()["properties"]["fdr"]["properties"]["families"]["items"]["properties"]["tests"]["items"]["enum"]
)


@dataclass(frozen=True)
class FdrFamily:
    name: str
    tests: tuple[str, ...]
    per_metric: bool = True


@dataclass(frozen=True)
class AnalysisSettings:
    """The analysis settings; build them with :func:`settings_from_config` (it fills the defaults)."""

    seed: int | None  # None: not passed (a step that draws no bootstrap); int(None) fails where one is drawn
    n_bootstrap: int
    ci_level: float
    min_models: int
    fisher_z_max_abs_rho: float
    ridge_alpha: float
    min_families_lofo: int
    top_k: int
    metrics: tuple[str, ...]
    control_composite_tasks: tuple[str, ...]
    axes_for_every_cs: tuple[str, ...]
    fdr_alpha: float
    fdr_families: tuple[FdrFamily, ...]
    figure_formats: tuple[str, ...]
    figure_dpi: int


def settings_from_config(section: dict | None) -> AnalysisSettings:
    """Build :class:`AnalysisSettings` from the ``analysis:`` dict, the schema's defaults filled in.

    ``seed`` has no schema default: the workflow passes the top-level ``seed`` to the steps that
    draw bootstraps. Unknown keys and values the schema does not allow fail, naming the key."""
    section = copy.deepcopy(dict(section or {}))
    known = set(_schema()["properties"])
    unknown = sorted(set(section) - known)
    if unknown:
        raise ValueError(f"analysis config: unknown key(s) {unknown}; allowed: {sorted(known)}")
    section = section_defaults("analysis", section)  # the one default filler (benchval.plumbing.config)
    validate(section, str(SCHEMA))
    composite, fdr, figures = section["control_composite"], section["fdr"], section["figures"]
    # without fdr.families, each test kind is its own family (per metric)
    families = (
        fdr["families"]
        if "families" in fdr
        else [{"name": kind, "tests": [kind], "per_metric": True} for kind in TEST_KINDS]
    )
    claimed = [test for family in families for test in family["tests"]]
    twice = sorted({test for test in claimed if claimed.count(test) > 1})
    if twice:
        raise ValueError(f"analysis.fdr.families: test kind(s) {twice} belong to more than one family")
    return AnalysisSettings(
        seed=section.get("seed"),
        **{
            key: section[key]
            for key in (
                "n_bootstrap",
                "ci_level",
                "min_models",
                "fisher_z_max_abs_rho",
                "ridge_alpha",
                "min_families_lofo",
                "top_k",
            )
        },
        metrics=tuple(section["metrics"] or ()),
        control_composite_tasks=tuple(composite["tasks"] or ()),
        axes_for_every_cs=tuple(section["axes_for_every_cs"] or ()),
        fdr_alpha=float(fdr["alpha"]),
        fdr_families=tuple(FdrFamily(f["name"], tuple(f["tests"]), bool(f["per_metric"])) for f in families),
        figure_formats=tuple(figures["formats"]),
        figure_dpi=int(figures["dpi"]),
    )
