# The report: `snakemake --report results/report.html` (docs/report.md).
# Snakemake's report shows images and HTML inline (CSV only as a download), so these rules put
# every figure and a self-contained HTML page of every table, the models, the task sizes and
# the config used under results/report/, each flagged with report() and a caption from
# workflow/report/*.rst. Needs from common.smk: STUDIES, SCORED_STUDIES, study_models.
from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES
from benchval.workflow_support import canonical, script_code_for, workdir_relative

script_code = script_code_for(workflow.current_basedir)  # see common.smk

REPORT_STUDY_TABLES = ("score_table", "task_table") + tuple(TABLE_NAMES)


# Copying files and rendering small tables: not worth a cluster job each.
localrules:
    report_figures,
    report_tables,
    report_models,
    report_task_sizes,
    report_config,


def _report_table_csv(study, name):
    """Where a study's table lives (docs/data-contract.md)."""
    if name == "score_table":
        return f"results/studies/{study}/score_table.csv"
    if name == "task_table":
        return f"results/studies/{study}/tasks.csv"
    return f"results/studies/{study}/tables/{name}.csv"


def _report_models():
    """Every model some scored study uses (imported studies have no prepared models)."""
    return sorted({m for s in SCORED_STUDIES for m in study_models(s)})


rule report_figures:
    input:
        [f"results/studies/{{study}}/figures/{stem}.png" for stem in FIGURE_STEMS],
    output:
        [
            report(
                f"results/report/{{study}}/figures/{stem}.png",
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
        "(for f in {input}; do cp -v \"$f\" results/report/{wildcards.study}/figures/; done) > {log} 2>&1"


rule report_tables:
    input:
        **{name: _report_table_csv("{study}", name) for name in REPORT_STUDY_TABLES},
    output:
        **{
            name: report(
                f"results/report/{{study}}/tables/{name}.html",
                caption=f"../report/table_{name}.rst",
                category="Tables",
                subcategory="{study}",
                labels={"study": "{study}", "table": name},
            )
            for name in REPORT_STUDY_TABLES
        },
    params:
        code=script_code("report_tables.py"),
    log:
        "logs/report_tables/{study}.log",
    benchmark:
        "logs/benchmarks/report_tables/{study}.tsv"
    script:
        "../scripts/report_tables.py"


rule report_models:
    input:
        manifests=[f"resources/models/{m}/benchval-model.json" for m in _report_models()],
    output:
        page=report("results/report/models.html", caption="../report/models.rst", category="Models"),
        table="results/report/models.csv",
    params:
        code=script_code("report_models.py"),
    log:
        "logs/report_models/models.log",
    benchmark:
        "logs/benchmarks/report_models/models.tsv"
    script:
        "../scripts/report_models.py"


rule report_task_sizes:
    input:
        "results/summary/task_sizes.csv",
    output:
        report("results/report/task_sizes.html", caption="../report/task_sizes.rst", category="Tasks"),
    params:
        code=script_code("report_task_sizes.py"),
    log:
        "logs/report_task_sizes/task_sizes.log",
    benchmark:
        "logs/benchmarks/report_task_sizes/task_sizes.tsv"
    script:
        "../scripts/report_task_sizes.py"


rule report_config:
    output:
        page=report("results/report/config.html", caption="../report/config.rst", category="Configuration"),
        config="results/report/config.yaml",
    params:
        config=canonical(config),
        code=script_code("report_config.py"),
    log:
        "logs/report_config/config.log",
    benchmark:
        "logs/benchmarks/report_config/config.tsv"
    script:
        "../scripts/report_config.py"


rule report_inputs:
    """Everything the report shows; `rule all` lists these so that --report finds them."""
    input:
        expand("results/report/{study}/figures/{stem}.png", study=STUDIES, stem=FIGURE_STEMS),
        expand("results/report/{study}/tables/{name}.html", study=STUDIES, name=REPORT_STUDY_TABLES),
        scoreboard_report_files(),
        commonwhy_eval_report_files(),
        "results/report/models.html",
        "results/report/config.html",
        ["results/report/task_sizes.html"] if SCORED_STUDIES else [],
