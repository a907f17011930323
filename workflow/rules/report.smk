# The report: `snakemake --report results/report.html` (docs/report.md).
# Snakemake's report shows images and HTML inline (CSV only as a download), so these rules put
# every figure and a self-contained HTML page of every table, the models, the task sizes and
# the config used under results/report/, each flagged with report() and a caption from
# workflow/report/*.rst.
from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES
from benchval.plumbing.layout import (
    REPORT_DIR,
    REPORT_STUDY_FIGURE,
    REPORT_STUDY_TABLE,
    SCORE_TABLE,
    STUDY_FIGURE,
    STUDY_TABLE,
    STUDY_TASKS,
    TASK_SIZES,
    fill,
    model_manifest,
    workflow_layout,
)
from benchval.plumbing.reruns import canonical, script_code_for

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)

REPORT_STUDY_TABLES = ("score_table", "task_table") + tuple(TABLE_NAMES)


# Copying files and rendering small tables: not worth a cluster job each.
localrules:
    report_figures,
    report_tables,
    report_models,
    report_task_sizes,
    report_config,


def _report_table_csv(name):
    """Where a study's table lives (docs/data-contract.md)."""
    return {"score_table": SCORE_TABLE, "task_table": STUDY_TASKS}.get(name, fill(STUDY_TABLE, name=name))


rule report_figures:
    input:
        [fill(STUDY_FIGURE, stem=stem, fmt="png") for stem in FIGURE_STEMS],
    output:
        [
            report(
                fill(REPORT_STUDY_FIGURE, stem=stem),
                caption=f"../report/{stem}.rst",
                category="Figures",
                subcategory="{study}",
                labels={"study": "{study}", "figure": stem},
            )
            for stem in FIGURE_STEMS
        ],
    log:
        "logs/report_figures/{study}.log",
    benchmark:
        "logs/benchmarks/report_figures/{study}.tsv"
    shell:
        f'(for f in {{input}}; do cp -v "$f" {REPORT_DIR}/{{wildcards.study}}/figures/; done) > {{log}} 2>&1'


rule report_tables:
    input:
        **{name: _report_table_csv(name) for name in REPORT_STUDY_TABLES},
    output:
        **{
            name: report(
                fill(REPORT_STUDY_TABLE, name=name),
                caption=f"../report/table_{name}.rst",
                category="Tables",
                subcategory="{study}",
                labels={"study": "{study}", "table": name},
            )
            for name in REPORT_STUDY_TABLES
        },
    log:
        "logs/report_tables/{study}.log",
    benchmark:
        "logs/benchmarks/report_tables/{study}.tsv"
    params:
        code=script_code("report_tables.py"),
    script:
        "../scripts/report_tables.py"


rule report_models:
    input:
        # every model some scored study uses (imported studies have no prepared models)
        manifests=[model_manifest(m) for m in LAYOUT.scored_study_models()],
    output:
        page=report(f"{REPORT_DIR}/models.html", caption="../report/models.rst", category="Models"),
        table=f"{REPORT_DIR}/models.csv",
    log:
        "logs/report_models/models.log",
    benchmark:
        "logs/benchmarks/report_models/models.tsv"
    params:
        code=script_code("report_models.py"),
    script:
        "../scripts/report_models.py"


rule report_task_sizes:
    input:
        TASK_SIZES,
    output:
        report(f"{REPORT_DIR}/task_sizes.html", caption="../report/task_sizes.rst", category="Tasks"),
    log:
        "logs/report_task_sizes/task_sizes.log",
    benchmark:
        "logs/benchmarks/report_task_sizes/task_sizes.tsv"
    params:
        code=script_code("report_task_sizes.py"),
    script:
        "../scripts/report_task_sizes.py"


rule report_config:
    output:
        page=report(f"{REPORT_DIR}/config.html", caption="../report/config.rst", category="Configuration"),
        config=f"{REPORT_DIR}/config.yaml",
    log:
        "logs/report_config/config.log",
    benchmark:
        "logs/benchmarks/report_config/config.tsv"
    params:
        config=canonical(config),
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
        f"{REPORT_DIR}/models.html",
        f"{REPORT_DIR}/config.html",
        [f"{REPORT_DIR}/task_sizes.html"] if LAYOUT.scored_studies else [],
