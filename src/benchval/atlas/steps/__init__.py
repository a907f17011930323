"""The atlas rules' step modules, one per rule script and named like it (``workflow/scripts/<name>.py`` calls
``benchval.atlas.steps.<name>``; tests/test_job_steps.py). A step reads what its rule passes and writes that
rule's outputs; the logic lives in benchval.atlas. What several atlas steps share: :mod:`.atlas_common` (the
table writer, the wide score matrix, the settings dicts) and :mod:`.atlas_factor` (the general-factor settings,
apart so that a change to benchval.atlas.general_factor reruns only the rules that compute g).

This package file imports nothing, so that editing one step reruns only its rule (benchval.jobs.reruns).
"""
