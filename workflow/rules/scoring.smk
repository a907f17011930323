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
from benchval.jobs.layout import SCORES, TASK_ITEMS, TASK_META, model_manifest, workflow_layout
from benchval.models.registry import PLACEMENT_KEYS as _PLACEMENT_KEYS
from benchval.models.registry import RESULT_KEYS as _RESULT_KEYS
from benchval.scoring.config_keys import SCORE_KEYS as _SCORE_KEYS
from benchval.jobs.reruns import script_code_for
from benchval.jobs.rule_settings import config_provider_for
from benchval.jobs.job_logs import benchmarks, logs
from benchval.plumbing.folders import RESULTS

# The files these rules write, beside them (relative to the working directory; other rule files name
# them as rules.<rule>.output.<key>)
SCORE_SHARDS = f"{RESULTS}/scores/{{model}}/{{task}}.shards"  # finished shards of an interrupted job

script_code = script_code_for(workflow.current_basedir)  # docs/workflow.md, "What reruns when"
config_provider = config_provider_for(config)  # the one way a rule names its config keys
LAYOUT = workflow_layout(config)

# Locally, a model-job slot (local.model_jobs_at_once of them) and torch threads (Layout.model_job_resources).
_MODEL_JOB = LAYOUT.model_job_resources(workflow)


# The model entry the job reads: the trigger's keys (RESULT_KEYS) and the placement keys (where the
# layers go), which change no score. Taking `input` makes it a derived param, which Snakemake leaves out
# of its rerun trigger (tests/test_workflow_e2e.py: editing cpu_offload_gb plans nothing).
_MODEL_ENTRY = config_provider("models.{model}", *_RESULT_KEYS, *_PLACEMENT_KEYS)


for _rule in LAYOUT.model_job_rules():

    rule:
        name:
            f"score{_rule.suffix}"
        input:
            tables=_rule.files(TASK_ITEMS),  # ("items" is reserved by Snakemake)
            metas=_rule.files(TASK_META),  # scoring_mode
            model=model_manifest(),
        output:
            scores=_rule.files(SCORES),
        log:
            logs(f"score{_rule.suffix}/{_rule.wildcard_path}.log"),
        benchmark:
            benchmarks(f"score{_rule.suffix}/{_rule.wildcard_path}.tsv")
        wildcard_constraints:
            **_rule.wildcard_constraints,
        priority: lambda wildcards: LAYOUT.model_job_priority(wildcards.model)
        conda:
            "../envs/benchval.yaml"
        resources:
            **_MODEL_JOB,
            **_rule_resources(config, "score", n_tasks=_rule.n_tasks),
        params:
            # the `scoring:` keys that change a score (benchval.scoring.config_keys)
            scoring=config_provider("scoring", *_SCORE_KEYS),
            # the model entry's keys that change a score: an edit of one reruns the scoring
            model=config_provider("models.{model}", *_RESULT_KEYS),
            entry=lambda wildcards, input: _MODEL_ENTRY(wildcards),
            shard_dirs=_rule.files(SCORE_SHARDS),
            code=script_code("score.py"),
        script:
            "../scripts/score.py"
