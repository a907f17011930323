"""The ``analysis:`` config section as a typed object with defaults (schema:
workflow/schemas/analysis.schema.yaml)."""

from __future__ import annotations

from dataclasses import dataclass, field

#: every test kind the analysis produces; FDR families group these
TEST_KINDS = (
    "cs_cs_spearman",
    "cs_downstream_spearman",
    "control_downstream_spearman",
    "revision_pair_spearman",
    "revision_group",
    "delta_rho",
    "partial_spearman",
    "axis_test",
)

DEFAULT_FDR_FAMILIES = tuple(
    {"name": kind, "tests": [kind], "per_metric": True} for kind in TEST_KINDS
)


@dataclass(frozen=True)
class FdrFamily:
    name: str
    tests: tuple[str, ...]
    per_metric: bool = True


@dataclass(frozen=True)
class AnalysisSettings:
    seed: int = 12345
    n_bootstrap: int = 5000
    ci_level: float = 0.95
    min_models: int = 5
    fisher_z_max_abs_rho: float = 0.9999
    ridge_alpha: float = 1.0
    min_families_lofo: int = 3
    top_k: int = 3
    metrics: tuple[str, ...] = ()
    control_composite_tasks: tuple[str, ...] = ()
    axes_for_every_cs: tuple[str, ...] = ("pragmatic",)
    fdr_alpha: float = 0.05
    fdr_families: tuple[FdrFamily, ...] = field(
        default_factory=lambda: tuple(FdrFamily(f["name"], tuple(f["tests"]), f["per_metric"])
                                      for f in DEFAULT_FDR_FAMILIES))
    figure_formats: tuple[str, ...] = ("png", "pdf")
    figure_dpi: int = 150


def settings_from_config(section: dict | None) -> AnalysisSettings:
    """Build :class:`AnalysisSettings` from the ``analysis:`` dict; unknown keys fail."""
    section = dict(section or {})
    known = {"seed", "n_bootstrap", "ci_level", "min_models", "fisher_z_max_abs_rho", "ridge_alpha",
             "min_families_lofo", "top_k", "metrics", "control_composite", "axes_for_every_cs", "fdr",
             "figures"}
    unknown = sorted(set(section) - known)
    if unknown:
        raise ValueError(f"analysis config: unknown key(s) {unknown}; allowed: {sorted(known)}")
    kwargs = {k: section[k] for k in ("seed", "n_bootstrap", "ci_level", "min_models",
                                      "fisher_z_max_abs_rho", "ridge_alpha", "min_families_lofo",
                                      "top_k") if k in section}
    if "metrics" in section:
        kwargs["metrics"] = tuple(section["metrics"] or ())
    if "axes_for_every_cs" in section:
        kwargs["axes_for_every_cs"] = tuple(section["axes_for_every_cs"] or ())
    composite = section.get("control_composite") or {}
    bad = sorted(set(composite) - {"tasks", "combine"})
    if bad:
        raise ValueError(f"analysis.control_composite: unknown key(s) {bad}")
    if composite.get("combine", "mean_of_zscores") != "mean_of_zscores":
        raise ValueError("analysis.control_composite.combine: only 'mean_of_zscores' is implemented")
    kwargs["control_composite_tasks"] = tuple(composite.get("tasks") or ())
    fdr = section.get("fdr") or {}
    bad = sorted(set(fdr) - {"method", "alpha", "families"})
    if bad:
        raise ValueError(f"analysis.fdr: unknown key(s) {bad}")
    if fdr.get("method", "bh") != "bh":
        raise ValueError("analysis.fdr.method: only 'bh' (Benjamini-Hochberg) is implemented")
    if "alpha" in fdr:
        kwargs["fdr_alpha"] = float(fdr["alpha"])
    if "families" in fdr:
        families = []
        for i, family in enumerate(fdr["families"]):
            unknown_tests = sorted(set(family["tests"]) - set(TEST_KINDS))
            if unknown_tests:
                raise ValueError(f"analysis.fdr.families[{i}] ({family['name']}): unknown test kind(s) "
                                 f"{unknown_tests}; known: {list(TEST_KINDS)}")
            families.append(FdrFamily(family["name"], tuple(family["tests"]), bool(family.get("per_metric", True))))
        claimed = [t for f in families for t in f.tests]
        twice = sorted({t for t in claimed if claimed.count(t) > 1})
        if twice:
            raise ValueError(f"analysis.fdr.families: test kind(s) {twice} belong to more than one family")
        kwargs["fdr_families"] = tuple(families)
    figures = section.get("figures") or {}
    if "formats" in figures:
        kwargs["figure_formats"] = tuple(figures["formats"])
    if "dpi" in figures:
        kwargs["figure_dpi"] = int(figures["dpi"])
    return AnalysisSettings(**kwargs)
