"""The jobs wing: the Snakemake kit, what only the workflow's rules need.

No stage package imports this wing (tests/test_import_graph.py; docs/workflow.md "Floors"); the rules' step
modules live beside their domain (``benchval.<domain>.steps.<rule>``, tests/test_job_steps.py).

* layout: the file layout (paths, name patterns) and the studies, models and tasks a config asks for;
* reruns: what makes reruns honest (canonical params, code digests, working-directory-relative paths);
* rule_settings: the one helper that gives a rule its settings; rule_files: files a rule reads beside code;
* job_logs: each rule's log and benchmark file from its name;
* cluster_resources: memory, runtime and GPUs of the model-heavy rules, from the model's size;
* commonwhy_eval_functions: the CommonWhy evaluation rules' stage settings, prompt files and model entries;
* cli: the ``benchval`` command (one Snakemake command per journey). The other rule files' helpers sit in the
  rule files, above the rules that use them.

The GPU-hours planner is :mod:`benchval.cluster_planning.gpu_hours`; the files drawn from the code
(docs/architecture.md, workflow/envs/benchval.yaml) are written by :mod:`benchval.project_files.generated_files`.
"""
