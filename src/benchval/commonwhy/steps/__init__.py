"""The CommonWhy pipeline rules' step modules (commonwhy_ground, commonwhy_kg_store, commonwhy_published), one
per rule script and named like it (tests/test_job_steps.py). This package file imports nothing, so that editing
one step reruns only its rule (benchval.jobs.reruns).
"""
