# Scoring: items x prepared model -> results/scores/{model}/{task}.parquet (benchval.scoring).
#
# `scoring.jobs` sets how the work is cut into jobs; the files written are the same either way:
#   per_task   rule `score`, one job per (model, task): a change to one task reruns only its jobs.
#   per_model  rules `score_model_<model>`, one job per model over all its tasks: the model loads
#              once, not once per task (8-15 s a task on a 2-core laptop, minutes for a 70B model on
#              a cluster). After a change to one task the model's job reruns, reuses the finished
#              shards of every other task and rescores only that task.
# A model entry's `scoring_jobs` overrides `scoring.jobs` for that model (config/paper.yaml: the
# 66-72B models per_model, loaded once; the others per_task).
# Finished shards stay in results/scores/{model}/{task}.shards/ so that an interrupted job resumes.

import re as _score_re

from benchval.plumbing.cluster_resources import rule_resources as _rule_resources
from benchval.plumbing.layout import SCORE_SHARDS, SCORES, TASK_ITEMS, TASK_META, alternatives, fill, model_manifest
from benchval.plumbing.layout import workflow_layout
from benchval.models.registry import EXECUTION_KEYS as _EXECUTION_KEYS
from benchval.plumbing.reruns import canonical, script_code_for

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
LAYOUT = workflow_layout(config)

# Everything in `scoring:` but what changes no score: the normalisation and lm-eval bootstrap
# iterations (only the evaluation rules use them), the job layout and the progress bars. Editing
# them must not rerun the scoring (Snakemake reruns a job whose params changed).
_SCORING_PARAMS = canonical(
    {
        k: v
        for k, v in config["scoring"].items()
        if k not in ("normalisation", "lmeval_bootstrap_iters", "jobs", "progress")
    }
)

# local.model_jobs_at_once model jobs side by side locally (benchval.plumbing.layout.Layout.model_job_threads).
_MODEL_THREADS = LAYOUT.model_job_threads(workflow)


def _model_params(model):
    """The model entry as a params value, less its job layout (which changes no score)."""
    return {k: v for k, v in config["models"][model].items() if k not in _EXECUTION_KEYS}


_SCORED_MODELS = LAYOUT.scored_models()
_PER_MODEL_JOBS = LAYOUT.models_with_scoring_jobs("per_model")
# Rule `score` serves every other model; with per-model jobs beside it, only those (no two rules
# may write the same file).
_PER_TASK_CONSTRAINT = (
    {"model": alternatives([m for m in _SCORED_MODELS if m not in _PER_MODEL_JOBS])} if _PER_MODEL_JOBS else {}
)


if len(_PER_MODEL_JOBS) < len(_SCORED_MODELS) or config["scoring"]["jobs"] == "per_task":

    rule score:
        input:
            table=TASK_ITEMS,  # ("items" is reserved by Snakemake)
            meta=TASK_META,  # scoring_mode
            model=model_manifest(),
        output:
            SCORES,
        log:
            "logs/score/{model}/{task}.log",
        benchmark:
            "logs/benchmarks/score/{model}/{task}.tsv"
        wildcard_constraints:
            **_PER_TASK_CONSTRAINT,
        priority: lambda wildcards: LAYOUT.model_job_priority(wildcards.model)
        threads: _MODEL_THREADS
        resources:
            **_rule_resources(config, "score"),
        params:
            scoring=_SCORING_PARAMS,
            model=lambda wildcards: canonical(_model_params(wildcards.model)),
            shard_dir=lambda wildcards: fill(SCORE_SHARDS, model=wildcards.model, task=wildcards.task),
            code=script_code("score.py"),
        script:
            "../scripts/score.py"


if _PER_MODEL_JOBS:
    for _model in _PER_MODEL_JOBS:
        _tasks = LAYOUT.tasks_scored_with(_model)

        rule:
            name:
                "score_model_" + _score_re.sub(r"\W", "_", _model)
            input:
                tables=expand(TASK_ITEMS, task=_tasks),
                metas=expand(TASK_META, task=_tasks),
                model=model_manifest(_model),
            output:
                expand(SCORES, model=_model, task=_tasks),
            log:
                f"logs/score/{_model}.log",
            benchmark:
                f"logs/benchmarks/score/{_model}.tsv"
            priority: LAYOUT.model_job_priority(_model)
            threads: _MODEL_THREADS
            resources:
                **_rule_resources(config, "score", model=_model, n_tasks=len(_tasks)),
            params:
                scoring=_SCORING_PARAMS,
                model=canonical(_model_params(_model)),
                model_name=_model,
                shard_dirs=expand(SCORE_SHARDS, model=_model, task=_tasks),
                code=script_code("score_model.py"),
            script:
                "../scripts/score_model.py"
