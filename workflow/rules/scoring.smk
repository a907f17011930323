# Scoring: items x prepared model -> results/scores/{model}/{task}.parquet (benchval.scoring).
#
# `scoring.jobs` sets how the work is cut into jobs; the files written are the same either way:
#   per_task   rule `score`, one job per (model, task): a change to one task reruns only its jobs.
#   per_model  rules `score_model_<model>`, one job per model over all its tasks: the model loads
#              once, not once per task (8-15 s a task on a 2-core laptop, minutes for a 70B model on
#              a cluster). After a change to one task the model's job reruns, reuses the finished
#              shards of every other task and rescores only that task.
# A model entry's `scoring_jobs` overrides `scoring.jobs` for that model (config/paper.yaml: the
# 66-72B models per_model, loaded once; the others per_task). One declaration serves both:
# benchval.jobs.layout.Layout.model_job_rules, as in evaluate.smk.
# Finished shards stay in results/scores/{model}/{task}.shards/ so that an interrupted job resumes.

from benchval.jobs.cluster_resources import rule_resources as _rule_resources
from benchval.jobs.layout import SCORE_SHARDS, SCORES, TASK_ITEMS, TASK_META, model_manifest, workflow_layout
from benchval.models.registry import EXECUTION_KEYS as _EXECUTION_KEYS
from benchval.models.registry import PLANNING_KEYS as _PLANNING_KEYS
from benchval.models.registry import entry_without as _entry_without
from benchval.jobs.reruns import canonical, script_code_for

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

# Locally, a model-job slot (local.model_jobs_at_once of them) and torch threads (Layout.model_job_resources).
_MODEL_JOB = LAYOUT.model_job_resources(workflow)


def _score_trigger(wildcards):
    """The model entry less EXECUTION_KEYS: what changes a score, so an edit of it reruns the scoring."""
    return canonical(_entry_without(config["models"][wildcards.model], _EXECUTION_KEYS))


def _score_entry(wildcards, input):
    """The model entry the job reads: the trigger's keys and the placement keys (where the layers go),
    which change no score. Taking `input` makes it a derived param, which Snakemake leaves out of its
    rerun trigger (tests/test_workflow_e2e.py: editing cpu_offload_gb plans nothing)."""
    return canonical(_entry_without(config["models"][wildcards.model], _PLANNING_KEYS))


for _rule in LAYOUT.model_job_rules():

    rule:
        name:
            "score" + _rule.suffix
        input:
            tables=_rule.files(TASK_ITEMS),  # ("items" is reserved by Snakemake)
            metas=_rule.files(TASK_META),  # scoring_mode
            model=model_manifest(),
        output:
            scores=_rule.files(SCORES),
        log:
            _rule.log("score"),
        benchmark:
            _rule.benchmark("score")
        wildcard_constraints:
            **_rule.wildcard_constraints,
        priority: lambda wildcards: LAYOUT.model_job_priority(wildcards.model)
        resources:
            **_MODEL_JOB,
            **_rule_resources(config, "score", n_tasks=_rule.n_tasks),
        params:
            scoring=_SCORING_PARAMS,
            model=_score_trigger,
            entry=_score_entry,
            shard_dirs=_rule.files(SCORE_SHARDS),
            code=script_code("score.py"),
        script:
            "../scripts/score.py"
