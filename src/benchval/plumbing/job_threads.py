"""How many threads a model job takes from Snakemake's budget, and how many torch may use in it."""

from __future__ import annotations

import math
import os
from collections.abc import MutableMapping

# Snakemake resources of a local model job (benchval.jobs.layout.Layout.model_job_resources): a slot of
# the global `model_jobs` resource (local.model_jobs_at_once of them) and the torch threads it may use.
MODEL_JOB_SLOTS = "model_jobs"
TORCH_THREADS = "torch_threads"
# libgomp (torch's and scikit-learn's OpenMP) lets an idle thread spin for a while before it sleeps: with two
# torch threads, the one waiting while Python runs between operators burns a core (benchmarks/bench_cpu_work.py)
OPENMP_WAIT_POLICY = "OMP_WAIT_POLICY"


def model_job_threads(cores: int, model_jobs_at_once: int) -> int:
    """A model job's share of the ``--cores`` budget, such that at most ``model_jobs_at_once`` fit side by side.

    The smallest share for which one more model job would not fit, ``cores // (at_once + 1) + 1``, so
    that the light jobs (task preparation, analysis) keep the rest of the budget and run beside the
    model jobs instead of holding one back (``--cores 8``, two at once: 3 each, 2 left). Where that
    share does not fit ``model_jobs_at_once`` times, ceil(cores / model_jobs_at_once); one model
    job at a time takes the whole budget.
    """
    cores, at_once = int(cores), int(model_jobs_at_once)
    if at_once == 1:
        return max(1, cores)
    share = cores // (at_once + 1) + 1
    if at_once * share > cores:
        share = math.ceil(cores / at_once)
    return max(1, share)


def torch_threads(job_threads: int, model_jobs_at_once: int = 1, machine_cores: int | None = None) -> int:
    """Torch threads for a job: its Snakemake threads, but never more than its share of the real cores.

    The ``--cores`` budget can exceed the cores really present (``--cores 8`` on a 2-core laptop);
    torch jobs side by side that each use every core oversubscribe the machine and run several
    times slower, so each of ``model_jobs_at_once`` jobs gets machine_cores // model_jobs_at_once.
    """
    machine_cores = machine_cores or os.cpu_count() or 1
    share = max(1, machine_cores // int(model_jobs_at_once))
    return max(1, min(int(job_threads), share))


def limit_torch_threads(threads: int, model_jobs_at_once: int = 1) -> int:
    """Set torch's thread count to torch_threads(threads, model_jobs_at_once) and return it."""
    import torch

    usable = torch_threads(threads, model_jobs_at_once)
    torch.set_num_threads(usable)
    return usable


def passive_openmp_waits(environ: MutableMapping[str, str]) -> str:
    """Make the jobs' idle OpenMP threads sleep instead of spin (``OMP_WAIT_POLICY=PASSIVE``) unless the
    environment already names a policy; returns the policy in force. It must be in the environment before
    a job loads libgomp (its first ``import torch``), so the Snakefile sets it for every job it starts.
    The policy changes when a thread waits, not how work is split: scores stay the same to the bit."""
    return environ.setdefault(OPENMP_WAIT_POLICY, "PASSIVE")


def lower_priority(niceness: int) -> int:
    """Raise this process's niceness by ``niceness`` (a light job: the operating system runs it on what the
    model jobs leave, so that light jobs side by side on a small machine do not slow the model jobs,
    which are the run's longest chain); returns the new niceness. 0 changes nothing."""
    return os.nice(int(niceness))
