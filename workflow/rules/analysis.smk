# Analysis of each study (docs/analysis.md): import an existing score table (csv / lm_eval studies),
# then the paper's statistics as a chain of rules, each with its own outputs under
# results/studies/{study}/ (benchval.analysis.chain):
#   analysis_correlations, analysis_revisions, analysis_partial, analysis_axes (with their bootstrap
#   CIs), analysis_lofo, analysis_displacement  ->  tables/ (tables with p-values: unadjusted/)
#   analysis_fdr  (reads every unadjusted p-value)  ->  tables/ (the tested tables) + tables/fdr.csv
#   analysis_figure_<figure>, one rule and script per figure  ->  figures/<figure>.{png,pdf}
# Each rule gets only the `analysis:` keys it reads (benchval.analysis.outputs.STEP_SETTINGS), so that
# editing analysis.fdr reruns only FDR and Figures 1-2 (ridge_alpha: LOFOCV, Figure 3 and the robustness rules).
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
from benchval.jobs.reruns import script_code_for, workdir_relative
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.study_inputs import (
    study_family_rules,
    study_family_rules_digests,
    study_raw_sources,
    study_source_input,
)
from benchval.jobs.rule_files import raw_content_of

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)
raw_content = raw_content_of(LAYOUT)  # raw inputs by content (benchval.jobs.rule_files.raw_content)
# the analysis seed: analysis.seed, else the top-level seed
_SEED = {"seed": "seed"}
# Where a statistic step writes table `name` (p-values unadjusted until the FDR step)
_step_file = lambda name: fill(UNADJUSTED_TABLE if name in TESTED_TABLES else STUDY_TABLE, name=name)


rule import_score_table:
    input:
        source=lambda w: study_source_input(LAYOUT, w.study),  # a raw or user file: by content
        family_rules=lambda w: ancient(study_family_rules(LAYOUT, w.study)),
    output:
        table=SCORE_TABLE,
        tasks=STUDY_TASKS,
    log:
        logs("import_score_table/{study}.log"),
    benchmark:
        benchmarks("import_score_table/{study}.tsv")
    wildcard_constraints:
        study=alternatives(LAYOUT.imported_studies),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        study=config_provider("studies.{study}"),
        family_rules=lambda w: study_family_rules_digests(LAYOUT, w.study, workflow.basedir),  # derived: its content
        mirror=workdir_relative(LAYOUT.mirror),  # derived: mirror, workdir-relative
        raw_content=lambda w: raw_content(study_raw_sources(LAYOUT, w.study)),  # derived: its source's sha256
        raw_files=LAYOUT.raw_file_check,  # derived: not a rerun trigger (its docstring)
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
            logs(f"analysis_{_step}/{{study}}.log"),
        benchmark:
            benchmarks(f"analysis_{_step}/{{study}}.tsv")
        wildcard_constraints:
            study="[^/]+",
        localrule: True
        conda:
            "../envs/benchval.yaml"
        params:
            step=_step,
            analysis=config_provider("analysis", *STEP_SETTINGS[_step], defaults=_SEED),
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
        logs("analysis_fdr/{study}.log"),
    benchmark:
        benchmarks("analysis_fdr/{study}.tsv")
    wildcard_constraints:
        study="[^/]+",
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        analysis=config_provider("analysis", *STEP_SETTINGS["fdr"], defaults=_SEED),
        ceiling_bar=config_provider("robustness.reliability.ceiling_bar"),
        out_dir=lambda w: fill(STUDY_DIR, study=w.study),
        code=script_code("analysis_fdr.py"),
    script:
        "../scripts/analysis_fdr.py"


# Figure 4 draws estimates and CIs, no significance: it reads the unadjusted tested tables, so that editing
# analysis.fdr does not redraw it (Figures 1 and 2 star significance and read the adjusted tables).
_FIGURES_FROM_UNADJUSTED = frozenset({"fig4_axis_tests"})
_figure_table = lambda stem, name: fill(
    UNADJUSTED_TABLE if stem in _FIGURES_FROM_UNADJUSTED and name in TESTED_TABLES else STUDY_TABLE, name=name
)

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
            logs(f"analysis_figure_{_stem}/{{study}}.log"),
        benchmark:
            benchmarks(f"analysis_figure_{_stem}/{{study}}.tsv")
        wildcard_constraints:
            study="[^/]+",
        localrule: True
        conda:
            "../envs/benchval.yaml"
        params:
            stem=_stem,
            analysis=config_provider("analysis", *FIGURE_SETTINGS[_stem], defaults=_SEED),
            out_dir=lambda w: fill(STUDY_DIR, study=w.study),
            notice=config_provider("studies.{study}.notice", default=None),
            # each figure its own script, importing only its own module (benchval.analysis.figures)
            code=script_code(f"analysis_figure_{_stem}.py"),
        script:
            "../scripts/analysis_figure_{params.stem}.py"


# One target rule per study: `snakemake --cores 2 study_<name>` builds that study's analysis tables and
# figures only (e.g. an imported lm_eval study, without scoring the default study; docs/configuration.md):
# every figure and table results/figures and results/tables publish of it, for an lm_eval study with samples
# also its item intervals and scoreboard (workflow/rules/lmeval.smk), and its findings page (report.smk).
for _study in LAYOUT.studies:
    _study_target = _analysis_re.sub(r"\W", "_", _study)  # the rule name: study_<name>

    rule:
        name:
            f"study_{_study_target}"
        input:
            LAYOUT.study_target_files(_study),
        localrule: True
