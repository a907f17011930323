"""Planning a config's run on a cluster before submitting it: :mod:`.gpu_hours`, the GPU-hours its scoring will
take (``python -m benchval.cluster_planning.gpu_hours``; docs/cluster.md). A tool above the workflow's kit: it
reads the jobs' resources from :mod:`benchval.jobs.cluster_resources`, as the jobs ask for them.
"""
