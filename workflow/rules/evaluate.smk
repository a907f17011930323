# Per (model, task): calibration (the decision score of every option, benchval.evaluation.calibrate), then
# metrics and lm-evaluation-harness-style outputs; per study, the score table.
#
# The jobs follow the scoring layout (benchval.plumbing.layout.Layout.scoring_jobs): per_task, rules `calibrate` and
# `evaluate` run once per (model, task); per_model, rules `calibrate_model_<model>` and
# `evaluate_model_<model>` run once per model over all its tasks (each job costs a Python start-up,
# 2-3 s; 57 evaluate jobs of the default study became 3). The files written are the same.

import re as _evaluate_re

from benchval.plumbing.layout import (
    CALIBRATED,
    LMEVAL_RESULTS,
    LMEVAL_SAMPLES,
    METRICS,
    SCORE_TABLE,
    SCORES,
    STUDY_TASKS,
    TASK_ITEMS,
    TASK_META,
    alternatives,
    model_manifest,
    workflow_layout,
)
from benchval.plumbing.reruns import canonical, script_code_for

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)


def _pair_files(pattern, model, tasks):
    return [pattern.format(model=model, task=task) for task in tasks]


_PER_TASK_MODELS = LAYOUT.models_with_scoring_jobs("per_task")
_PER_MODEL_MODELS = LAYOUT.models_with_scoring_jobs("per_model")

# lm-eval-style standard errors (benchval.evaluation.lmeval_format): the seed and bootstrap iterations
_LMEVAL_STDERR = canonical({"seed": config["seed"], "bootstrap_iters": config["scoring"]["lmeval_bootstrap_iters"]})


rule calibrate:
    input:
        scores=[SCORES],
        metas=[TASK_META],
    output:
        calibrated=[CALIBRATED],
    log:
        "logs/calibrate/{model}/{task}.log",
    benchmark:
        "logs/benchmarks/calibrate/{model}/{task}.tsv"
    wildcard_constraints:
        model=alternatives(_PER_TASK_MODELS),
    localrule: True
    params:
        normalisation=config["scoring"]["normalisation"],
        code=script_code("calibrate.py"),
    script:
        "../scripts/calibrate.py"


rule evaluate:
    input:
        task_items=[TASK_ITEMS],
        metas=[TASK_META],
        scores=[SCORES],
        calibrated=[CALIBRATED],
        model=model_manifest(),
    output:
        metrics=[METRICS],
        lmeval_results=[LMEVAL_RESULTS],
        lmeval_samples=[LMEVAL_SAMPLES],
    log:
        "logs/evaluate/{model}/{task}.log",
    benchmark:
        "logs/benchmarks/evaluate/{model}/{task}.tsv"
    wildcard_constraints:
        model=alternatives(_PER_TASK_MODELS),
    localrule: True
    params:
        normalisation=config["scoring"]["normalisation"],
        lmeval_stderr=_LMEVAL_STDERR,
        model=lambda w: w.model,
        code=script_code("evaluate.py"),
    script:
        "../scripts/evaluate.py"


for _model in _PER_MODEL_MODELS:
    _tasks = LAYOUT.tasks_scored_with(_model)
    _suffix = _evaluate_re.sub(r"\W", "_", _model)

    rule:
        name:
            "calibrate_model_" + _suffix
        input:
            scores=_pair_files(SCORES, _model, _tasks),
            metas=_pair_files(TASK_META, _model, _tasks),
        output:
            calibrated=_pair_files(CALIBRATED, _model, _tasks),
        log:
            f"logs/calibrate/{_model}.log",
        benchmark:
            f"logs/benchmarks/calibrate/{_model}.tsv"
        localrule: True
        params:
            normalisation=config["scoring"]["normalisation"],
            code=script_code("calibrate.py"),
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
            model=model_manifest(_model),
        output:
            metrics=_pair_files(METRICS, _model, _tasks),
            lmeval_results=_pair_files(LMEVAL_RESULTS, _model, _tasks),
            lmeval_samples=_pair_files(LMEVAL_SAMPLES, _model, _tasks),
        log:
            f"logs/evaluate/{_model}.log",
        benchmark:
            f"logs/benchmarks/evaluate/{_model}.tsv"
        localrule: True
        params:
            normalisation=config["scoring"]["normalisation"],
            lmeval_stderr=_LMEVAL_STDERR,
            model=_model,
            code=script_code("evaluate.py"),
        script:
            "../scripts/evaluate.py"


rule score_table:
    input:
        metrics=lambda w: expand(METRICS, model=LAYOUT.study_models(w.study), task=LAYOUT.study_tasks(w.study)),
        metas=lambda w: expand(TASK_META, task=LAYOUT.study_tasks(w.study)),
        criteria=lambda w: LAYOUT.commonwhy_criterion_inputs(w.study),
    output:
        table=SCORE_TABLE,
        tasks=STUDY_TASKS,
    log:
        "logs/score_table/{study}.log",
    benchmark:
        "logs/benchmarks/score_table/{study}.tsv"
    wildcard_constraints:
        study=alternatives(LAYOUT.scored_studies),
    params:
        models=lambda w: canonical({m: config["models"][m] for m in LAYOUT.study_models(w.study)}),
        labels=lambda w: canonical(LAYOUT.task_labels(w.study)),
        criteria_files=lambda w: LAYOUT.commonwhy_criterion_inputs(w.study),
        code=script_code("score_table.py"),
    script:
        "../scripts/score_table.py"
