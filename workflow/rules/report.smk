# The report: `snakemake --report results/report.html` (docs/report.md).
# Snakemake's report shows images and HTML inline (CSV only as a download), so these rules put
# every figure and a self-contained HTML page of every table, the models, the task sizes and
# the config used under results/report/, each flagged with report() and a caption from
# workflow/report/*.rst. Copying files and rendering small tables: every rule here is a local
# rule, not worth a cluster job each.
import os

from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES
from benchval.jobs.layout import (
    COMMONWHY_EVAL_DIR,
    PAIRED_TABLE,
    REPORT_STUDY_FIGURE,
    REPORT_STUDY_TABLE,
    SCORE_TABLE,
    SCOREBOARD_TABLE,
    SPECIFICATION_TABLE,
    STUDY_FIGURE,
    STUDY_FINDINGS_HTML,
    STUDY_FINDINGS_MARKDOWN,
    STUDY_TABLE,
    STUDY_TASKS,
    TASK_SIZES,
    alternatives,
    fill,
    model_manifest,
    workflow_layout,
)
from benchval.jobs.reruns import config_digest, script_code_for
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.atlas.atlas_outputs import atlas_outputs
from benchval.report.findings import ANALYSIS_INPUTS, KEY_FIGURES
from benchval.report.safe_text import script_safe_json
from benchval.jobs.layout import REPORT_DIR
from benchval.plumbing.folders import RESULTS

# The files these rules write, beside them (relative to the working directory; other rule files name
# them as rules.<rule>.output.<key>)
FINDINGS_MARKDOWN = f"{RESULTS}/findings.md"
FINDINGS_HTML = f"{RESULTS}/findings.html"
REPORT_FINDINGS_PAGE = f"{REPORT_DIR}/findings.html"
STUDY_EXPLORER = f"{RESULTS}/explorer/{{study}}.html"
REPORT_MODELS_PAGE = f"{REPORT_DIR}/models.html"
REPORT_MODELS_TABLE = f"{REPORT_DIR}/models.csv"
REPORT_TASK_SIZES_PAGE = f"{REPORT_DIR}/task_sizes.html"
REPORT_CONFIG_PAGE = f"{REPORT_DIR}/config.html"
REPORT_CONFIG_YAML = f"{REPORT_DIR}/config.yaml"

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)

REPORT_STUDY_TABLES = ("score_table", "task_table") + tuple(TABLE_NAMES)
# Where a study's table lives (docs/data-contract.md)
_table_csv = lambda name: {"score_table": SCORE_TABLE, "task_table": STUDY_TASKS}.get(
    name, fill(STUDY_TABLE, name=name)
)
# A study's figure, and a table as an HTML page, in the report, captioned by workflow/report/<stem>.rst and
# table_<name>.rst: the arguments of Snakemake's report()
_figure_page = lambda stem: dict(
    value=fill(REPORT_STUDY_FIGURE, stem=stem),
    caption=f"../report/{stem}.rst",
    category="Figures",
    subcategory="{study}",
    labels={"study": "{study}", "figure": stem},
)
_table_page = lambda name: dict(
    value=fill(REPORT_STUDY_TABLE, name=name),
    caption=f"../report/table_{name}.rst",
    category="Tables",
    subcategory="{study}",
    labels={"study": "{study}", "table": name},
)


rule report_figures:
    input:
        [fill(STUDY_FIGURE, stem=stem, fmt="png") for stem in FIGURE_STEMS],
    output:
        [report(**_figure_page(stem)) for stem in FIGURE_STEMS],
    log:
        logs("report_figures/{study}.log"),
    benchmark:
        benchmarks("report_figures/{study}.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        folder=lambda wildcards, output: os.path.dirname(output[0]),  # the study's report folder
    shell:
        '(for f in {input}; do cp -v "$f" "{params.folder}"/; done) > {log} 2>&1'


rule report_tables:
    input:
        **{name: _table_csv(name) for name in REPORT_STUDY_TABLES},
    output:
        **{name: report(**_table_page(name)) for name in REPORT_STUDY_TABLES},
    log:
        logs("report_tables/{study}.log"),
    benchmark:
        benchmarks("report_tables/{study}.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        code=script_code("report_tables.py"),
    script:
        "../scripts/report_tables.py"


rule report_scoreboard:
    input:
        figure=fill(STUDY_FIGURE, stem="scoreboard", fmt="png"),
        table=SCOREBOARD_TABLE,
    output:
        figure=report(**_figure_page("scoreboard")),
        table=report(**_table_page("scoreboard")),
    log:
        logs("report_scoreboard/{study}.log"),
    benchmark:
        benchmarks("report_scoreboard/{study}.tsv")
    wildcard_constraints:
        study=alternatives(LAYOUT.scoreboard_studies()),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        code=script_code("report_scoreboard.py"),
    script:
        "../scripts/report_scoreboard.py"


rule report_specification_robustness:
    input:
        SPECIFICATION_TABLE,
    output:
        report(**_table_page("specification_robustness")),
    log:
        logs("report_specification_robustness/{study}.log"),
    benchmark:
        benchmarks("report_specification_robustness/{study}.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        name="specification_robustness",
        code=script_code("report_table_page.py"),
    script:
        "../scripts/report_table_page.py"


# The findings page (docs/report.md, "Findings"): per study, the conclusions that survive their controls,
# FDR and the specification grid, in sentences read from the tables; first in the report (its category
# sorts first). The atlas's table is read if the run has one (an input only when the config runs the atlas).
# The tables it reads: benchval.report.findings.STUDY_INPUTS.
# What the page reads of one study (rule findings, and rule study_findings of its own page): its tables, a
# scored study's scoreboard and paired comparisons, and the PNG figures it embeds (all made by the run anyway:
# the page adds no job)
_has_scoreboard = lambda study: study in LAYOUT.scoreboard_studies()
_findings_figures = lambda study: [*KEY_FIGURES, *(["scoreboard"] if _has_scoreboard(study) else [])]
_study_findings_inputs = lambda study: {
    **{name: fill(STUDY_TABLE, study=study, name=name) for name in ANALYSIS_INPUTS},
    "specification_robustness": fill(SPECIFICATION_TABLE, study=study),
    "tasks": fill(STUDY_TASKS, study=study),
    **(
        {"scoreboard": fill(SCOREBOARD_TABLE, study=study), "paired_comparisons": fill(PAIRED_TABLE, study=study)}
        if _has_scoreboard(study)
        else {}
    ),
    **{
        f"figure/{stem}": fill(STUDY_FIGURE, study=study, stem=stem, fmt="png")
        for stem in (_findings_figures(study) if "png" in LAYOUT.figure_formats else [])
    },
}


rule findings:
    input:
        **{f"{study}/{name}": path for study in LAYOUT.studies for name, path in _study_findings_inputs(study).items()},
        # the atlas's outputs when this run builds an atlas study (atlas.smk), so that the page reads them after
        atlas=lambda w: atlas_outputs(config, LAYOUT.studies),
    output:
        markdown=FINDINGS_MARKDOWN,
        html=FINDINGS_HTML,
        report=report(
            REPORT_FINDINGS_PAGE,
            caption="../report/findings.rst",
            category="0 Findings (read first)",
        ),
    log:
        logs("findings/findings.log"),
    benchmark:
        benchmarks("findings/findings.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        studies=list(LAYOUT.studies),  # derived: the studies this run builds (Layout.studies)
        alpha=config_provider("analysis.fdr.alpha"),
        min_models=config_provider("analysis.min_models"),
        criteria=config_provider("robustness.findings"),
        atlas_table="results/atlas/human_preference.csv",
        commonwhy_dir=COMMONWHY_EVAL_DIR,
        code=script_code("report_findings.py"),
    script:
        "../scripts/report_findings.py"


# One study's findings page (docs/report.md, "Findings"): its section of the run's page, beside the study's own
# figures/ and tables/ under results/studies/{study}/, so that its study target (study_<name>, analysis.smk)
# gives it with every file it links. Not in the default target (results/findings.md is the run's page).
rule study_findings:
    input:
        unpack(lambda w: _study_findings_inputs(w.study)),
    output:
        markdown=STUDY_FINDINGS_MARKDOWN,
        html=STUDY_FINDINGS_HTML,
    log:
        logs("study_findings/{study}.log"),
    benchmark:
        benchmarks("study_findings/{study}.tsv")
    wildcard_constraints:
        study=alternatives(LAYOUT.studies),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        study=lambda w: w.study,
        alpha=config_provider("analysis.fdr.alpha"),
        min_models=config_provider("analysis.min_models"),
        criteria=config_provider("robustness.findings"),
        code=script_code("study_findings.py"),
    script:
        "../scripts/study_findings.py"


# The explorer of one study (docs/report.md, "Explorer of a study"): the atlas explorer's page drawn from the
# study's own tables. Not in the default target (one 4 MB page per study): `benchval explorer --study NAME`
# or `snakemake results/explorer/NAME.html`.
rule study_explorer:
    input:
        score_table=SCORE_TABLE,
        tasks=STUDY_TASKS,
        correlations_cs_downstream=fill(STUDY_TABLE, name="correlations_cs_downstream"),
    output:
        page=STUDY_EXPLORER,
    log:
        logs("study_explorer/{study}.log"),
    benchmark:
        benchmarks("study_explorer/{study}.tsv")
    wildcard_constraints:
        study=alternatives(LAYOUT.studies),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        ci_level=config_provider("analysis.ci_level"),
        top_k=config_provider("atlas.forest_top_k", default=20),  # a workflow without the atlas: 20
        code=script_code("study_explorer.py"),
    script:
        "../scripts/study_explorer.py"


rule report_models:
    input:
        # every model some scored study uses (imported studies have no prepared models)
        manifests=[model_manifest(m) for m in LAYOUT.scored_study_models()],
    output:
        page=report(REPORT_MODELS_PAGE, caption="../report/models.rst", category="Models"),
        table=REPORT_MODELS_TABLE,
    log:
        logs("report_models/report_models.log"),
    benchmark:
        benchmarks("report_models/report_models.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        code=script_code("report_models.py"),
    script:
        "../scripts/report_models.py"


rule report_task_sizes:
    input:
        TASK_SIZES,
    output:
        report(REPORT_TASK_SIZES_PAGE, caption="../report/task_sizes.rst", category="Tasks"),
    log:
        logs("report_task_sizes/report_task_sizes.log"),
    benchmark:
        benchmarks("report_task_sizes/report_task_sizes.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        code=script_code("report_task_sizes.py"),
    script:
        "../scripts/report_task_sizes.py"


rule report_config:
    output:
        page=report(REPORT_CONFIG_PAGE, caption="../report/config.rst", category="Configuration"),
        config=REPORT_CONFIG_YAML,
    log:
        logs("report_config/report_config.log"),
    benchmark:
        benchmarks("report_config/report_config.tsv")
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        # the page shows the whole config: any edit reruns it, on purpose; a digest, so that the dry run's
        # reason is one short line, not the config (benchval.jobs.reruns.config_digest)
        config_digest=config_digest(config),  # derived: the whole config as a digest (the config page)
        code=script_code("report_config.py"),
    script:
        "../scripts/report_config.py"


rule report_inputs:
    """Everything the report shows; `rule all` lists these so that --report finds them."""
    input:
        expand(REPORT_STUDY_FIGURE, study=LAYOUT.studies, stem=FIGURE_STEMS),
        expand(REPORT_STUDY_TABLE, study=LAYOUT.studies, name=REPORT_STUDY_TABLES),
        LAYOUT.scoreboard_report_files(),
        LAYOUT.commonwhy_eval_report_files(),
        REPORT_FINDINGS_PAGE,
        REPORT_MODELS_PAGE,
        REPORT_CONFIG_PAGE,
        [REPORT_TASK_SIZES_PAGE] if LAYOUT.scored_studies else [],
