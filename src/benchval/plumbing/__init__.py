"""The workflow's plumbing: configuration, folders, the start of every job, code digests, cluster resources.

Nothing here computes a result of the study; the stage packages (tasks, scoring, evaluation, analysis,
atlas, commonwhy, ...) do, and they import from here, never the other way round.
"""
