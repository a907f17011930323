"""Step modules of the analysis rules (paired_comparisons, power_planning, scoreboard,
specification_robustness), one per rule script and named like it (tests/test_job_steps.py). This package file
imports nothing, so that editing one step reruns only its rule (benchval.jobs.reruns).
"""
