# The user-facing folders: results/figures/{study}/ and results/tables/{study}/ gather what each
# study's analysis wrote under results/studies/{study}/, plus the task sizes of every scored task.


rule task_sizes:
    input:
        metas=expand("results/tasks/{task}.meta.json", task=scored_tasks()),
        filters=expand("results/tasks/{task}.filters.json", task=scored_tasks()),
    output:
        "results/summary/task_sizes.csv",
    params:
        tasks=canonical({task: config["tasks"][task] for task in scored_tasks()}),
        deviations=canonical(
            {task: reason for task, reason in (config.get("paper_n_deviations") or {}).items() if task in scored_tasks()}
        ),
        code=script_code("task_sizes.py"),
    log:
        "logs/task_sizes/task_sizes.log",
    benchmark:
        "logs/benchmarks/task_sizes/task_sizes.tsv"
    script:
        "../scripts/task_sizes.py"


rule publish:
    input:
        figures=[path for study in STUDIES for path in study_figure_files(study)] + scoreboard_publish_files("figures"),
        tables=[path for study in STUDIES for path in study_table_files(study)] + scoreboard_publish_files("tables"),
        task_sizes="results/summary/task_sizes.csv",
        # the report's pages (report.smk), so that `snakemake --report` works right after
        # `snakemake results/figures` (README)
        report=lambda w: rules.report_inputs.input,
    output:
        figures=directory("results/figures"),
        tables=directory("results/tables"),
    params:
        code=script_code("publish.py"),
    log:
        "logs/publish/publish.log",
    benchmark:
        "logs/benchmarks/publish/publish.tsv"
    script:
        "../scripts/publish.py"
