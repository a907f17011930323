"""The functions of the rule files, one module per file of workflow/rules/ (``analysis`` for analysis.smk).

A rule file holds its imports, constants and rules, and calls these: a file that also defines functions is
what ``snakemake --lint`` reports ("Mixed rules and functions in same snakefile", docs/workflow.md,
"Formatting and lint"). Each function takes what it reads (the config, the workflow's
:class:`benchval.jobs.layout.Layout`, the rule file's ``config_provider``) as arguments; an input function
is made by a factory that returns it.
"""
