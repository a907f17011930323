# Analysis of each study (docs/analysis.md): import an existing score table (csv / lm_eval studies),
# then the paper's statistics as a chain of rules, each with its own outputs under
# results/studies/{study}/ (benchval.analysis.chain):
#   analysis_correlations, analysis_revisions, analysis_partial, analysis_axes (with their bootstrap
#   CIs), analysis_lofo, analysis_displacement  ->  tables/ (tables with p-values: unadjusted/)
#   analysis_fdr  (reads every unadjusted p-value)  ->  tables/ (the tested tables) + tables/fdr.csv
#   analysis_figure_<figure>, one rule and script per figure  ->  figures/<figure>.{png,pdf}
# Each rule gets only the `analysis:` keys it reads (benchval.analysis.outputs.STEP_SETTINGS), so that
# editing analysis.ridge_alpha reruns only LOFOCV and Figure 3, analysis.fdr only FDR and Figures 1-2.
# Every rule here is a local rule: seconds of pandas/scipy on a small table (the whole analysis of 23
# models x 19 tasks takes ~17 s, benchmarks/bench_analysis.py), which on a cluster would cost a queue
# wait and a Snakemake start per job (docs/cluster.md, "What runs where").
import re as _analysis_re

from benchval.analysis.outputs import (
    FIGURE_INPUTS,
    FIGURE_SETTINGS,
    FIGURE_STEMS,
    STEP_SETTINGS,
    STEP_TABLES,
    TABLE_NAMES,
    TESTED_TABLES,
)
from benchval.jobs.layout import (
    SCORE_TABLE,
    STUDY_DIR,
    STUDY_TABLE,
    STUDY_TASKS,
    UNADJUSTED_TABLE,
    alternatives,
    fill,
)
from benchval.jobs.layout import TASK_RELIABILITY_TABLE
from benchval.jobs.layout import workflow_layout
from benchval.lmeval import samples_studies
from benchval.jobs.reruns import canonical, script_code_for, workdir_relative

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)


def _analysis_params(keys):
    """The given keys of the `analysis:` section (seed: the top-level seed unless analysis.seed is set)."""
    section = dict(config["analysis"])
    section.setdefault("seed", config["seed"])
    return canonical({key: section[key] for key in keys if key in section})


def _step_file(name):
    """Where a statistic step writes table `name` (p-values unadjusted until the FDR step)."""
    return fill(UNADJUSTED_TABLE if name in TESTED_TABLES else STUDY_TABLE, name=name)


def _import_source(wildcards):
    """The imported study's source file or directory (mirror expanded), relative to the working directory."""
    from benchval.analysis.study_import import expand_path

    return workdir_relative(expand_path(LAYOUT.studies[wildcards.study]["path"], LAYOUT.mirror))


def _family_rules(wildcards):
    """An lm_eval study's model-registry rules file, an input so that editing it reruns the import."""
    rules = LAYOUT.studies[wildcards.study].get("family_rules")
    return [rules] if rules else []


rule import_score_table:
    input:
        source=_import_source,
        family_rules=_family_rules,
    output:
        table=SCORE_TABLE,
        tasks=STUDY_TASKS,
    log:
        "logs/import_score_table/{study}.log",
    benchmark:
        "logs/benchmarks/import_score_table/{study}.tsv"
    wildcard_constraints:
        study=alternatives(LAYOUT.imported_studies),
    localrule: True
    params:
        study=lambda w: canonical(LAYOUT.studies[w.study]),
        mirror=workdir_relative(LAYOUT.mirror),
        raw_files=LAYOUT.raw_file_check,  # not a rerun trigger (its docstring)
        code=script_code("import_score_table.py"),
    script:
        "../scripts/import_score_table.py"


for _step, _tables in STEP_TABLES.items():

    rule:
        name:
            f"analysis_{_step}"
        input:
            table=SCORE_TABLE,
            tasks=STUDY_TASKS,
        output:
            **{name: _step_file(name) for name in _tables},
        log:
            f"logs/analysis_{_step}/{{study}}.log",
        benchmark:
            f"logs/benchmarks/analysis_{_step}/{{study}}.tsv"
        wildcard_constraints:
            study="[^/]+",
        localrule: True
        params:
            step=_step,
            analysis=_analysis_params(STEP_SETTINGS[_step]),
            out_dir=lambda w: fill(STUDY_DIR, study=w.study),
            code=script_code(f"analysis_{_step}.py"),
        script:
            # formatted per job: an f-string here would see the loop's last _step when the job runs
            "../scripts/analysis_{params.step}.py"


rule analysis_fdr:
    input:
        **{name: fill(UNADJUSTED_TABLE, name=name) for name in TESTED_TABLES},
        # the correlation tables get each task's reliability and the ceiling (workflow/rules/robustness.smk)
        reliability=TASK_RELIABILITY_TABLE,
    output:
        **{name: fill(STUDY_TABLE, name=name) for name in (*TESTED_TABLES, "fdr")},
    log:
        "logs/analysis_fdr/{study}.log",
    benchmark:
        "logs/benchmarks/analysis_fdr/{study}.tsv"
    wildcard_constraints:
        study="[^/]+",
    localrule: True
    params:
        analysis=_analysis_params(STEP_SETTINGS["fdr"]),
        ceiling_bar=config["robustness"]["reliability"]["ceiling_bar"],
        out_dir=lambda w: fill(STUDY_DIR, study=w.study),
        code=script_code("analysis_fdr.py"),
    script:
        "../scripts/analysis_fdr.py"


# Figure 4 draws estimates and CIs, no significance: it reads the unadjusted table, so that editing
# analysis.fdr does not redraw it (Figures 1 and 2 star significance and read the adjusted tables).
_FIGURES_FROM_UNADJUSTED = {"fig4_axis_tests"}


def _figure_table(stem, name):
    unadjusted = stem in _FIGURES_FROM_UNADJUSTED and name in TESTED_TABLES
    return fill(UNADJUSTED_TABLE if unadjusted else STUDY_TABLE, name=name)


for _stem in FIGURE_STEMS:

    rule:
        name:
            f"analysis_figure_{_stem}"
        input:
            **{name: _figure_table(_stem, name) for name in FIGURE_INPUTS[_stem]},
            table=SCORE_TABLE,
            tasks=STUDY_TASKS,
        output:
            LAYOUT.study_figure_files("{study}", [_stem]),
        log:
            f"logs/analysis_figure_{_stem}/{{study}}.log",
        benchmark:
            f"logs/benchmarks/analysis_figure_{_stem}/{{study}}.tsv"
        wildcard_constraints:
            study="[^/]+",
        localrule: True
        params:
            stem=_stem,
            analysis=_analysis_params(FIGURE_SETTINGS[_stem]),
            out_dir=lambda w: fill(STUDY_DIR, study=w.study),
            notice=lambda w: config["studies"][w.study].get("notice"),
            # each figure its own script, importing only its own module (benchval.analysis.figures)
            code=script_code(f"analysis_figure_{_stem}.py"),
        script:
            "../scripts/analysis_figure_{params.stem}.py"


# One target rule per study: `snakemake --cores 2 study_<name>` builds that study's analysis tables and
# figures only (e.g. an imported lm_eval study, without scoring the default study; docs/configuration.md),
# for an lm_eval study with samples also its item intervals (workflow/rules/lmeval.smk).
for _study in LAYOUT.studies:

    rule:
        name:
            "study_" + _analysis_re.sub(r"\W", "_", _study)
        input:
            LAYOUT.study_figure_files(_study),
            LAYOUT.study_table_files(_study),
            [fill(STUDY_TABLE, study=_study, name="item_intervals")]
            if _study in samples_studies(LAYOUT.studies)
            else [],
        localrule: True
