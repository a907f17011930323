"""Downstream tasks (social, pragmatic, event axes) and the control tasks of the paper.

One module per source, each registering its adapters with ``benchval.tasks.base.register``
(the modules are found by ``benchval.tasks.base.import_adapter_modules``); near_duplicates.py holds
the near-duplicate rule shared by IMPPRES and TRIP, common.py the helpers the adapters share.
Filters and their thresholds are documented in docs/downstream-tasks.md.
"""
