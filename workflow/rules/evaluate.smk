# Per (model, task): calibration (the decision score of every option, benchval.evaluation.calibrate), then
# metrics and lm-evaluation-harness-style outputs; per study, the score table.
#
# The jobs follow the scoring layout (benchval.jobs.layout.Layout.model_job_rules, as in scoring.smk):
# per_task, rules `calibrate` and `evaluate` run once per (model, task); per_model, rules
# `calibrate_model_<model>` and `evaluate_model_<model>` run once per model over all its tasks (each
# job costs a Python start-up, 2-3 s; 57 evaluate jobs of the default study became 3). The files
# written are the same.

from benchval.jobs.layout import (
    CALIBRATED,
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
from benchval.jobs.reruns import canonical, script_code_for
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.jobs.study_inputs import study_model_keys
from benchval.plumbing.folders import RESULTS

# The files these rules write, beside them (relative to the working directory; other rule files name
# them as rules.<rule>.output.<key>)
LMEVAL_RESULTS = f"{RESULTS}/lmeval/{{model}}/{{task}}/results.json"
LMEVAL_SAMPLES = f"{RESULTS}/lmeval/{{model}}/{{task}}/samples.jsonl"

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)

# lm-eval-style standard errors (benchval.evaluation.lmeval_format): the seed and bootstrap iterations
_LMEVAL_STDERR = canonical(
    {"seed": config_provider("seed"), "bootstrap_iters": config_provider("scoring.lmeval_bootstrap_iters")}
)


for _rule in LAYOUT.model_job_rules():

    rule:
        name:
            f"calibrate{_rule.suffix}"
        input:
            scores=_rule.files(SCORES),
            metas=_rule.files(TASK_META),
        output:
            calibrated=_rule.files(CALIBRATED),
        log:
            logs(f"calibrate{_rule.suffix}/{_rule.wildcard_path}.log"),
        benchmark:
            benchmarks(f"calibrate{_rule.suffix}/{_rule.wildcard_path}.tsv")
        wildcard_constraints:
            **_rule.wildcard_constraints,
        localrule: True
        conda:
            "../envs/benchval.yaml"
        params:
            normalisation=config_provider("scoring.normalisation"),
            code=script_code("calibrate.py"),
        script:
            "../scripts/calibrate.py"


for _rule in LAYOUT.model_job_rules():

    rule:
        name:
            f"evaluate{_rule.suffix}"
        input:
            task_items=_rule.files(TASK_ITEMS),
            metas=_rule.files(TASK_META),
            scores=_rule.files(SCORES),
            calibrated=_rule.files(CALIBRATED),
            model=model_manifest(),
        output:
            metrics=_rule.files(METRICS),
            lmeval_results=_rule.files(LMEVAL_RESULTS),
            lmeval_samples=_rule.files(LMEVAL_SAMPLES),
        log:
            logs(f"evaluate{_rule.suffix}/{_rule.wildcard_path}.log"),
        benchmark:
            benchmarks(f"evaluate{_rule.suffix}/{_rule.wildcard_path}.tsv")
        wildcard_constraints:
            **_rule.wildcard_constraints,
        localrule: True
        conda:
            "../envs/benchval.yaml"
        params:
            normalisation=config_provider("scoring.normalisation"),
            lmeval_stderr=_LMEVAL_STDERR,
            model=lambda wildcards: wildcards.model,
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
        logs("score_table/{study}.log"),
    benchmark:
        benchmarks("score_table/{study}.tsv")
    wildcard_constraints:
        study=alternatives(LAYOUT.scored_studies),
    localrule: True
    conda:
        "../envs/benchval.yaml"
    params:
        models=lambda w: study_model_keys(LAYOUT, config_provider, w.study),  # derived: its models' entries
        labels=lambda w: canonical(LAYOUT.task_labels(w.study)),  # derived: the tasks' labels (tasks.<task>.label)
        criteria_files=lambda w: LAYOUT.commonwhy_criterion_inputs(w.study),  # derived: files, as the input criteria
        code=script_code("score_table.py"),
    script:
        "../scripts/score_table.py"
