"""SLURM's accounting of the test cluster's jobs (sacct)."""

from __future__ import annotations

import subprocess


def sacct(job_ids: list[str], fields: str, env) -> str:
    """sacct's table of ``job_ids``: one line a job (allocations only), ``fields`` (e.g. "JobID,State")
    separated by ``|``, no header."""
    return subprocess.run(
        ["sacct", "-X", "-n", "-P", "-o", fields, "-j", ",".join(job_ids)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
