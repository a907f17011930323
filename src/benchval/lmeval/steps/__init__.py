"""One module per rule script of the lm-eval rules (workflow/rules/lmeval.smk): ``workflow/scripts/<name>.py``
calls one function of ``benchval.lmeval.steps.<name>`` (the layout of issue 41). This package file imports
nothing, so that a script hashes only its own step (benchval.jobs.reruns)."""
