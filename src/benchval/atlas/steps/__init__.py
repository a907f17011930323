"""The atlas rules' step modules, one per rule script and named like it (``workflow/scripts/<name>.py`` calls
``benchval.atlas.steps.<name>``; tests/test_job_steps.py). A step reads what its rule passes and writes that
rule's outputs; the logic lives in benchval.atlas. What several atlas steps share: :mod:`.atlas_common` (the
table writer, the wide score matrix, the registry, the column traits); their settings are the named objects
of benchval.atlas.statistics_settings (IncrementalSettings, AgreementSettings), from the keys the rule passes.

This package file imports nothing, so that editing one step reruns only its rule (benchval.jobs.reruns).
"""
