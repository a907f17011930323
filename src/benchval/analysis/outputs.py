"""Names of the files the analysis writes (imported by workflow/rules/analysis.smk).

Every table holds all metrics, distinguished by a ``metric`` column; every figure shows one
panel (or one colour) per metric. So the set of output files does not depend on the data.
"""

from __future__ import annotations

FIGURE_STEMS = (
    "fig1_cs_correlations",
    "fig2_cs_downstream",
    "fig3_lofo_delta_r2",
    "fig4_axis_tests",
    "table4_rank_displacement",
)

TABLE_NAMES = (
    "study_summary",
    "correlations_cs_cs",
    "correlations_cs_downstream",
    "revision_pairs",
    "revision_groups",
    "delta_rho",
    "revision_sensitivity",
    "partial_spearman",
    "axis_tests",
    "lofo_scores",
    "lofo_predictions",
    "rank_displacement_pairs",
    "table4_rank_displacement",
    "fdr",
)

# The analysis as a chain of steps (one Snakemake rule each, workflow/rules/analysis.smk).
# Each statistic step writes its tables; the ones with p-values go to unadjusted/ first and reach
# tables/ through the FDR step, which adjusts them together.
STEP_TABLES = {
    "correlations": ("study_summary", "correlations_cs_cs", "correlations_cs_downstream"),
    "revisions": ("revision_pairs", "revision_groups", "delta_rho", "revision_sensitivity"),
    "partial": ("partial_spearman",),
    "axes": ("axis_tests",),
    "lofo": ("lofo_scores", "lofo_predictions"),
    "displacement": ("rank_displacement_pairs", "table4_rank_displacement"),
}
#: tables with p-values: written to unadjusted/ by their step, to tables/ by the FDR step
TESTED_TABLES = (
    "correlations_cs_cs",
    "correlations_cs_downstream",
    "revision_pairs",
    "revision_groups",
    "delta_rho",
    "partial_spearman",
    "axis_tests",
)

# The `analysis:` keys each step reads (all steps also get `metrics` and `min_models`). A step's
# rule passes only these, so editing another key reruns nothing of it; a step reading a setting
# that is not listed fails loudly (run.StepSettings) instead of silently using the default.
_COMMON_KEYS = ("metrics", "min_models")
_BOOTSTRAP_KEYS = ("n_bootstrap", "ci_level", "seed")
STEP_SETTINGS = {
    # every correlation carries its bootstrap interval over models (benchval.analysis.intervals)
    "correlations": _COMMON_KEYS + _BOOTSTRAP_KEYS,
    "revisions": _COMMON_KEYS + ("n_bootstrap", "ci_level", "seed", "fisher_z_max_abs_rho"),
    "partial": _COMMON_KEYS + ("control_composite",) + _BOOTSTRAP_KEYS,
    "axes": _COMMON_KEYS + ("n_bootstrap", "ci_level", "seed", "fisher_z_max_abs_rho", "axes_for_every_cs"),
    # lofo reads the control composite too (partial.control_tasks_for), and the bootstrap keys for
    # the interval of the R2 gain (Figure 3)
    "lofo": _COMMON_KEYS + ("ridge_alpha", "min_families_lofo", "control_composite", "n_bootstrap", "ci_level", "seed"),
    "displacement": _COMMON_KEYS + ("top_k",),
    "fdr": _COMMON_KEYS + ("fdr",),
}
# Each figure: the tables it draws and the keys it reads. Figures 1 and 2 star significance (fdr) and
# write each interval's level (ci_level).
FIGURE_INPUTS = {
    "fig1_cs_correlations": ("correlations_cs_cs",),
    "fig2_cs_downstream": ("correlations_cs_downstream",),
    "fig3_lofo_delta_r2": ("lofo_scores",),
    "fig4_axis_tests": ("axis_tests",),
    "table4_rank_displacement": ("table4_rank_displacement",),
}
FIGURE_SETTINGS = {
    "fig1_cs_correlations": _COMMON_KEYS + ("fdr", "ci_level", "figures"),
    "fig2_cs_downstream": _COMMON_KEYS + ("fdr", "ci_level", "figures"),
    "fig3_lofo_delta_r2": _COMMON_KEYS + ("ci_level", "figures"),
    "fig4_axis_tests": _COMMON_KEYS + ("ci_level", "figures"),
    "table4_rank_displacement": _COMMON_KEYS + ("top_k", "figures"),
}
#: settings fields (benchval.analysis.settings.AnalysisSettings) behind each config key
SETTING_FIELDS = {
    "control_composite": ("control_composite_tasks",),
    "fdr": ("fdr_alpha", "fdr_families"),
    "figures": ("figure_formats", "figure_dpi"),
}
