"""The task folders: one folder per task, ``<task>/`` holding

* ``task.yaml``: its catalogue entry, config-shaped (``tasks: {<task>: ...}``, and under ``datasets:`` the
  raw files it is the first to read), merged into the workflow's config (benchval.plumbing.config.catalogue_files);
* ``adapter.py``: the adapter it names (``tasks.<task>.adapter``), registered with
  ``benchval.tasks.base.register``; a task that reuses another task's adapter (a variant) has none;
* ``README.md``: its notes (prompt format, filters and their thresholds, n on the mirror).

benchval.tasks.registry finds a task, and the module of an adapter, by name; a new folder needs no list
edited (docs/tasks.md, "Adding a task"). docs/downstream-tasks.md is the index of the folders.
"""
