# The user-facing folders: results/figures/{study}/ and results/tables/{study}/ gather what each
# study's analysis wrote under results/studies/{study}/, plus the task sizes of every scored task.


rule task_sizes:
    input:
        metas=expand("results/tasks/{task}.meta.json", task=scored_tasks()),
        filters=expand("results/tasks/{task}.filters.json", task=scored_tasks()),
    output:
        "results/summary/task_sizes.csv",
    params:
        tasks={task: config["tasks"][task] for task in scored_tasks()},
        deviations={task: reason for task, reason in (config.get("paper_n_deviations") or {}).items()
                    if task in scored_tasks()},
    log:
        "logs/task_sizes/task_sizes.log",
    script:
        "../scripts/task_sizes.py"


rule publish:
    input:
        figures=[path for study in STUDIES for path in study_figure_files(study)] + scoreboard_publish_files("figures"),
        tables=[path for study in STUDIES for path in study_table_files(study)] + scoreboard_publish_files("tables"),
        task_sizes="results/summary/task_sizes.csv",
    output:
        figures=directory("results/figures"),
        tables=directory("results/tables"),
    log:
        "logs/publish/publish.log",
    script:
        "../scripts/publish.py"
