# Analysis of each study (docs/analysis.md): import an existing score table (csv / lm_eval studies),
# then the paper's statistics as a chain of rules, each with its own outputs under
# results/studies/{study}/ (benchval.analysis.chain):
#   analysis_correlations, analysis_revisions, analysis_partial, analysis_axes (with their bootstrap
#   CIs), analysis_lofo, analysis_displacement  ->  tables/ (tables with p-values: unadjusted/)
#   analysis_fdr  (reads every unadjusted p-value)  ->  tables/ (the tested tables) + tables/fdr.csv
#   analysis_figure_<figure>, one rule per figure   ->  figures/<figure>.{png,pdf}
# Each rule gets only the `analysis:` keys it reads (benchval.analysis.outputs.STEP_SETTINGS), so that
# editing analysis.ridge_alpha reruns only LOFOCV and Figure 3, analysis.fdr only FDR and Figures 1-2.
from benchval.analysis.outputs import (
    FIGURE_INPUTS,
    FIGURE_SETTINGS,
    FIGURE_STEMS,
    STEP_SETTINGS,
    STEP_TABLES,
    TABLE_NAMES,
    TESTED_TABLES,
)
from benchval.workflow_support import canonical, script_code_for, workdir_relative

script_code = script_code_for(workflow.current_basedir)  # see common.smk


def _analysis_params(keys):
    """The given keys of the `analysis:` section (seed: the top-level seed unless analysis.seed is set)."""
    section = dict(config.get("analysis") or {})
    section.setdefault("seed", config["seed"])
    return canonical({key: section[key] for key in keys if key in section})


def _figure_formats():
    return ((config.get("analysis") or {}).get("figures") or {}).get("formats") or ["png", "pdf"]


def study_figure_files(study):
    """Figure files the analysis writes for `study` (also used by the publish rule)."""
    return [f"results/studies/{study}/figures/{stem}.{fmt}" for stem in FIGURE_STEMS for fmt in _figure_formats()]


def study_table_files(study):
    """Table files (CSV) the analysis writes for `study` (also used by the publish rule)."""
    return [f"results/studies/{study}/tables/{name}.csv" for name in TABLE_NAMES]


def _step_file(name):
    """Where a statistic step writes table `name` (p-values unadjusted until the FDR step)."""
    folder = "unadjusted" if name in TESTED_TABLES else "tables"
    return f"results/studies/{{study}}/{folder}/{name}.csv"


def _import_source(wildcards):
    """The imported study's source file or directory (mirror expanded), relative to the working directory."""
    from benchval.analysis.importers import expand_path

    return workdir_relative(expand_path(STUDIES[wildcards.study]["path"], MIRROR))


rule import_score_table:
    input:
        source=_import_source,
    output:
        table="results/studies/{study}/score_table.csv",
        tasks="results/studies/{study}/tasks.csv",
    params:
        study=lambda w: canonical(STUDIES[w.study]),
        mirror=workdir_relative(MIRROR),
        code=script_code("import_score_table.py"),
    wildcard_constraints:
        study=IMPORTED_STUDY_PATTERN,
    log:
        "logs/import_score_table/{study}.log",
    benchmark:
        "logs/benchmarks/import_score_table/{study}.tsv"
    script:
        "../scripts/import_score_table.py"


for _step, _tables in STEP_TABLES.items():

    rule:
        name:
            f"analysis_{_step}"
        input:
            table="results/studies/{study}/score_table.csv",
            tasks="results/studies/{study}/tasks.csv",
        output:
            **{name: _step_file(name) for name in _tables},
        params:
            step=_step,
            analysis=_analysis_params(STEP_SETTINGS[_step]),
            out_dir=lambda w: f"results/studies/{w.study}",
            code=script_code(f"analysis_{_step}.py"),
        wildcard_constraints:
            study="[^/]+",
        log:
            f"logs/analysis_{_step}/{{study}}.log",
        benchmark:
            f"logs/benchmarks/analysis_{_step}/{{study}}.tsv"
        script:
            # formatted per job: an f-string here would see the loop's last _step when the job runs
            "../scripts/analysis_{params.step}.py"


rule analysis_fdr:
    input:
        **{name: f"results/studies/{{study}}/unadjusted/{name}.csv" for name in TESTED_TABLES},
    output:
        **{name: f"results/studies/{{study}}/tables/{name}.csv" for name in (*TESTED_TABLES, "fdr")},
    params:
        analysis=_analysis_params(STEP_SETTINGS["fdr"]),
        out_dir=lambda w: f"results/studies/{w.study}",
        code=script_code("analysis_fdr.py"),
    wildcard_constraints:
        study="[^/]+",
    log:
        "logs/analysis_fdr/{study}.log",
    benchmark:
        "logs/benchmarks/analysis_fdr/{study}.tsv"
    script:
        "../scripts/analysis_fdr.py"


# Figure 4 draws estimates and CIs, no significance: it reads the unadjusted table, so that editing
# analysis.fdr does not redraw it (Figures 1 and 2 star significance and read the adjusted tables).
_FIGURES_FROM_UNADJUSTED = {"fig4_axis_tests"}


def _figure_table(stem, name):
    folder = "unadjusted" if stem in _FIGURES_FROM_UNADJUSTED and name in TESTED_TABLES else "tables"
    return f"results/studies/{{study}}/{folder}/{name}.csv"


for _stem in FIGURE_STEMS:

    rule:
        name:
            f"analysis_figure_{_stem}"
        input:
            table="results/studies/{study}/score_table.csv",
            tasks="results/studies/{study}/tasks.csv",
            **{name: _figure_table(_stem, name) for name in FIGURE_INPUTS[_stem]},
        output:
            [f"results/studies/{{study}}/figures/{_stem}.{fmt}" for fmt in _figure_formats()],
        params:
            stem=_stem,
            analysis=_analysis_params(FIGURE_SETTINGS[_stem]),
            out_dir=lambda w: f"results/studies/{w.study}",
            code=script_code("analysis_figure.py"),
        wildcard_constraints:
            study="[^/]+",
        log:
            f"logs/analysis_figure_{_stem}/{{study}}.log",
        benchmark:
            f"logs/benchmarks/analysis_figure_{_stem}/{{study}}.tsv"
        script:
            "../scripts/analysis_figure.py"
