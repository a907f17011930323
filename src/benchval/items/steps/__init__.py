"""The item-study rules' step modules, one per rule script and named like it (tests/test_job_steps.py);
``items_irt`` serves the scripts items_irt and items_irt_recovery. This package file imports nothing.
"""
