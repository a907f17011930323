"""benchval.jobs.layout.Layout.model_job_rules: how the scoring layout cuts score, calibrate and evaluate
into rules (the dry runs of tests/scoring/test_job_layout.py check the same through Snakemake)."""

import re

from benchval.jobs.layout import SCORES, Layout
from benchval.models.registry import EXECUTION_KEYS, PLANNING_KEYS, entry_without


def _layout(jobs, **overrides):
    models = {"a": {}, "b-1": {}, "c": {}}
    for model, layout in overrides.items():
        models[model.replace("_", "-")]["scoring_jobs"] = layout
    studies = {"s": {"source": "scored", "models": ["a", "b-1"], "tasks": ["t2", "t1"]}}
    return Layout({"models": models, "scoring": {"jobs": jobs}, "studies": studies})


def test_per_task_everywhere_is_one_rule_over_the_configured_models():
    (rule,) = _layout("per_task").model_job_rules()
    assert (rule.suffix, rule.models, rule.tasks) == ("", None, None)
    assert rule.files(SCORES) == [SCORES] and rule.n_tasks == 1 and rule.wildcard_constraints == {}


def test_per_model_models_get_a_rule_each_and_the_per_task_rule_the_others():
    per_task, b = _layout("per_task", b_1="per_model").model_job_rules()
    assert re.fullmatch(per_task.models, "a") and not re.fullmatch(per_task.models, "b-1")
    assert b.suffix == "_model_b_1" and b.tasks == ("t1", "t2") and b.n_tasks == 2
    assert re.fullmatch(b.models, "b-1") and not re.fullmatch(b.models, "a")
    assert b.files(SCORES) == ["results/scores/{model}/t1.parquet", "results/scores/{model}/t2.parquet"]


def test_no_per_task_rule_when_every_scored_model_is_per_model():
    rules = _layout("per_model").model_job_rules()
    assert [rule.suffix for rule in rules] == ["_model_a", "_model_b_1"]
    # one scored model per_task: the per-task rule is back, for it alone
    rules = _layout("per_model", a="per_task").model_job_rules()
    assert [rule.suffix for rule in rules] == ["", "_model_b_1"] and re.fullmatch(rules[0].models, "a")


def test_one_helper_strips_either_key_list():
    entry = {"family": "f", "scoring_jobs": "per_model", "job_size_b": 1, "cpu_offload_gb": 2}
    assert entry_without(entry, EXECUTION_KEYS) == {"family": "f"}  # the scoring rules' rerun trigger
    assert entry_without(entry, PLANNING_KEYS) == {"family": "f", "cpu_offload_gb": 2}  # what the job reads
