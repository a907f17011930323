"""The jobs wing: what only the workflow's rules need, above every stage package.

The layout (paths and the sets a config asks for), the rerun helpers, the one helper that gives a rule
its settings, cluster sizing, the GPU-hours planner, and one module per rule script (``steps``), named
like its script. Nothing below this wing (the stage packages, ``benchval.plumbing``) imports it
(tests/test_import_graph.py; docs/workflow.md "Floors").

* layout: the file layout (paths, name patterns) and the studies, models and tasks a config asks for;
* reruns: what makes reruns honest (canonical params, code digests, working-directory-relative paths);
* cluster_resources: memory, runtime and GPUs of the model-heavy rules, from the model's size;
* gpu_hours: GPU-hours a config's scoring will take (``python -m benchval.jobs.gpu_hours``);
* steps: one module per rule script, named like its script (``steps.shared``: what several steps share).
"""
