"""One module per rule script: ``workflow/scripts/<name>.py`` calls one function of ``benchval.jobs.steps.<name>``
(tests/test_job_steps.py). A step reads what its rule passes and writes that rule's outputs; the logic lives
in the stage packages it calls. Two modules serve a rule family whose scripts share their code, and are named
after it: ``commonwhy_eval_baselines`` (scripts commonwhy_eval_kbbinder and commonwhy_eval_kgr) and
``items_irt`` (items_irt and items_irt_recovery). What several steps share is in :mod:`.shared`.

Each script imports only its own step, so that editing one step (or a library module only it uses) reruns
only its rule and what follows (per-module code hashing, benchval.jobs.reruns). This package file imports
nothing, for the same reason.
"""
