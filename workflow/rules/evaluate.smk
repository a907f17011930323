# Per (model, task) metrics and lm-evaluation-harness-style outputs; per study, the score table.


rule evaluate:
    input:
        task_items="results/tasks/{task}.parquet",
        meta="results/tasks/{task}.meta.json",
        scores="results/scores/{model}/{task}.parquet",
        model="resources/models/{model}/benchval-model.json",
    output:
        metrics="results/metrics/{model}/{task}.csv",
        lmeval_results="results/lmeval/{model}/{task}/results.json",
        lmeval_samples="results/lmeval/{model}/{task}/samples.jsonl",
    params:
        normalisation=config["scoring"]["normalisation"],
        lmeval_stderr={"seed": config["seed"], "bootstrap_iters": config["scoring"].get("lmeval_bootstrap_iters", 1000)},
    log:
        "logs/evaluate/{model}/{task}.log",
    script:
        "../scripts/evaluate.py"


rule score_table:
    input:
        metrics=lambda w: expand(
            "results/metrics/{model}/{task}.csv", model=study_models(w.study), task=study_tasks(w.study)
        ),
        metas=lambda w: expand("results/tasks/{task}.meta.json", task=study_tasks(w.study)),
        criteria=lambda w: commonwhy_criterion_inputs(w.study),
    output:
        table="results/studies/{study}/score_table.csv",
        tasks="results/studies/{study}/tasks.csv",
    params:
        models=lambda w: {m: config["models"][m] for m in study_models(w.study)},
        criteria_files=lambda w: commonwhy_criterion_inputs(w.study),
    wildcard_constraints:
        study=SCORED_STUDY_PATTERN,
    log:
        "logs/score_table/{study}.log",
    script:
        "../scripts/score_table.py"


def commonwhy_criterion_inputs(study):
    """CommonWhy criterion rows and tasks when the study asks for them (see studies.schema.yaml)."""
    if not STUDIES[study].get("commonwhy_criterion", False):
        return []
    return [f"{CWE_DIR}/criterion_rows.csv", f"{CWE_DIR}/criterion_tasks.csv"]
