"""Step modules of the rules that read a study's scores or items from an lm_eval output folder or a score
table (import_score_table, task_reliability and lmeval_scoreboard: they import benchval.lmeval, so they live
on its floor), one per rule script and named like it (tests/test_job_steps.py). This package file imports
nothing, so that a script hashes only its own step (benchval.jobs.reruns).
"""
