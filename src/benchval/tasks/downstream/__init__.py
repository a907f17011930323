"""What the downstream and control adapters share: common.py (option shuffling, answer statements, the
text-quality rule), near_duplicates.py (the near-duplicate rule of IMPPRES and TRIP) and imppres.py (the
items of both IMPPRES tasks). The adapters themselves live in their task folders
(src/benchval/tasks/catalogue/<task>/adapter.py, found by benchval.tasks.registry); each folder's
README.md states its filters and their thresholds.
"""
