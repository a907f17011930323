"""The ``scoring:`` keys, by the rules that read them (every key of scoring.schema.yaml is in one group:
tests/test_rule_settings.py). The rules name them with the one helper (benchval.jobs.rule_settings), so
editing a key reruns exactly its rules. This module imports nothing: the rule files read it at parse time."""

#: what changes a score: the scoring rules (score, score_model_<model>) pass exactly these
SCORE_KEYS = ("engine", "batch_tokens", "shard_items", "prior_context")
#: read by the evaluation rules (calibrate, evaluate) and the scoreboard: no score changes
EVALUATION_KEYS = ("normalisation", "lmeval_bootstrap_iters")
#: how the work is cut into jobs and shown (workflow planning, the progress bar): no rule passes them
PLANNING_KEYS = ("jobs", "progress")
