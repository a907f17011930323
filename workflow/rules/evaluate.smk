# Per (model, task): calibration (the decision score of every option, benchval.calibrate), then
# metrics and lm-evaluation-harness-style outputs; per study, the score table.
#
# The jobs follow the scoring layout (common.smk's scoring_layout): per_task, rules `calibrate` and
# `evaluate` run once per (model, task); per_model, rules `calibrate_model_<model>` and
# `evaluate_model_<model>` run once per model over all its tasks (each job costs a Python start-up,
# 2-3 s; 57 evaluate jobs of the default study became 3). The files written are the same.

import re as _evaluate_re


def _pair_files(pattern, model, tasks):
    return [pattern.format(model=model, task=task) for task in tasks]


_PER_TASK_MODELS = sorted({m for m, _ in scored_pairs() if scoring_layout(m) == "per_task"})
_PER_MODEL_MODELS = sorted({m for m, _ in scored_pairs() if scoring_layout(m) == "per_model"})

# lm-eval-style standard errors (benchval.scoring.lmeval_format): the seed and bootstrap iterations
_LMEVAL_STDERR = canonical(
    {"seed": config["seed"], "bootstrap_iters": config["scoring"].get("lmeval_bootstrap_iters", 1000)}
)

CALIBRATED = "results/calibrated/{model}/{task}.parquet"
SCORES = "results/scores/{model}/{task}.parquet"
TASK_ITEMS = "results/tasks/{task}.parquet"
TASK_META = "results/tasks/{task}.meta.json"
METRICS = "results/metrics/{model}/{task}.csv"
LMEVAL_RESULTS = "results/lmeval/{model}/{task}/results.json"
LMEVAL_SAMPLES = "results/lmeval/{model}/{task}/samples.jsonl"


rule calibrate:
    input:
        scores=[SCORES],
        metas=[TASK_META],
    output:
        calibrated=[CALIBRATED],
    params:
        normalisation=config["scoring"]["normalisation"],
        code=script_code("calibrate.py"),
    wildcard_constraints:
        model=alternatives(_PER_TASK_MODELS),
    log:
        "logs/calibrate/{model}/{task}.log",
    benchmark:
        "logs/benchmarks/calibrate/{model}/{task}.tsv"
    localrule: True
    script:
        "../scripts/calibrate.py"


rule evaluate:
    input:
        task_items=[TASK_ITEMS],
        metas=[TASK_META],
        scores=[SCORES],
        calibrated=[CALIBRATED],
        model="resources/models/{model}/benchval-model.json",
    output:
        metrics=[METRICS],
        lmeval_results=[LMEVAL_RESULTS],
        lmeval_samples=[LMEVAL_SAMPLES],
    params:
        normalisation=config["scoring"]["normalisation"],
        lmeval_stderr=_LMEVAL_STDERR,
        model=lambda w: w.model,
        code=script_code("evaluate.py"),
    wildcard_constraints:
        model=alternatives(_PER_TASK_MODELS),
    log:
        "logs/evaluate/{model}/{task}.log",
    benchmark:
        "logs/benchmarks/evaluate/{model}/{task}.tsv"
    localrule: True
    script:
        "../scripts/evaluate.py"


for _model in _PER_MODEL_MODELS:
    _tasks = sorted({t for m, t in scored_pairs() if m == _model})
    _suffix = _evaluate_re.sub(r"\W", "_", _model)

    rule:
        name:
            "calibrate_model_" + _suffix
        input:
            scores=_pair_files(SCORES, _model, _tasks),
            metas=_pair_files(TASK_META, _model, _tasks),
        output:
            calibrated=_pair_files(CALIBRATED, _model, _tasks),
        params:
            normalisation=config["scoring"]["normalisation"],
            code=script_code("calibrate.py"),
        log:
            f"logs/calibrate/{_model}.log",
        benchmark:
            f"logs/benchmarks/calibrate/{_model}.tsv"
        localrule: True
        script:
            "../scripts/calibrate.py"

    rule:
        name:
            "evaluate_model_" + _suffix
        input:
            task_items=_pair_files(TASK_ITEMS, _model, _tasks),
            metas=_pair_files(TASK_META, _model, _tasks),
            scores=_pair_files(SCORES, _model, _tasks),
            calibrated=_pair_files(CALIBRATED, _model, _tasks),
            model=f"resources/models/{_model}/benchval-model.json",
        output:
            metrics=_pair_files(METRICS, _model, _tasks),
            lmeval_results=_pair_files(LMEVAL_RESULTS, _model, _tasks),
            lmeval_samples=_pair_files(LMEVAL_SAMPLES, _model, _tasks),
        params:
            normalisation=config["scoring"]["normalisation"],
            lmeval_stderr=_LMEVAL_STDERR,
            model=_model,
            code=script_code("evaluate.py"),
        log:
            f"logs/evaluate/{_model}.log",
        benchmark:
            f"logs/benchmarks/evaluate/{_model}.tsv"
        localrule: True
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
        models=lambda w: canonical({m: config["models"][m] for m in study_models(w.study)}),
        labels=lambda w: canonical({t: config["tasks"][t].get("label") or t for t in study_tasks(w.study)}),
        criteria_files=lambda w: commonwhy_criterion_inputs(w.study),
        code=script_code("score_table.py"),
    wildcard_constraints:
        study=SCORED_STUDY_PATTERN,
    log:
        "logs/score_table/{study}.log",
    benchmark:
        "logs/benchmarks/score_table/{study}.tsv"
    script:
        "../scripts/score_table.py"


def commonwhy_criterion_inputs(study):
    """CommonWhy criterion rows and tasks when the study asks for them (see studies.schema.yaml)."""
    if not STUDIES[study].get("commonwhy_criterion", False):
        return []
    return [f"{CWE_DIR}/criterion_rows.csv", f"{CWE_DIR}/criterion_tasks.csv"]
