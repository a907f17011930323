"""The jobs wing: what only the workflow's rules need, above every stage package.

The layout (paths and the sets a config asks for), the rerun helpers, the one helper that gives a rule
its settings, cluster sizing, the GPU-hours planner, and one module per rule script (``steps``), named
like its script. Nothing below this wing (the stage packages, ``benchval.plumbing``) imports it
(tests/test_import_graph.py; docs/workflow.md "Floors").
"""
