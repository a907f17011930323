"""The keys of a task's catalogue entry, by the rules that read them (every key of tasks.schema.yaml is in
one group: tests/test_rule_settings.py). The rules name them with the one helper
(benchval.jobs.rule_settings). This module imports nothing: the rule files read it at parse time."""

#: what builds a task's items: prepare_task passes exactly these, so editing one rebuilds the task
ITEM_KEYS = (
    "adapter",
    "dataset",
    "role",
    "pairs_with",
    "axes",
    "scoring_mode",
    "metrics",
    "paper_n",
    "options",
    "variants",
    "exclude_ids",
)
#: what only names or presents a task: editing it rebuilds no items (and reruns no model job);
#: rule score_table passes it to the task table instead
PRESENTATION_KEYS = ("label",)
