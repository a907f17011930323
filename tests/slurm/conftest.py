"""A real single-node SLURM cluster for the tests in this folder (tests/slurm/cluster.sh).

The cluster is started once per test session in a temporary folder and stopped afterwards;
teardown checks that every daemon it started is gone. Tests are skipped (not failed) where the
cluster cannot run at all: not root, or the Debian packages missing with no way to install them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLUSTER_SH = REPO / "tests" / "slurm" / "cluster.sh"
CANNOT_RUN = 77  # cluster.sh's exit code for "cannot run here"


def pytest_collection_modifyitems(items):
    """The tests that use the cluster go first: under pytest-xdist tests/slurm/ is one unit of work
    (tests/conftest.py), the longest, and it mostly waits on the cluster, so the other worker runs the
    rest of the suite meanwhile."""
    on_cluster = [item for item in items if "slurm_cluster" in getattr(item, "fixturenames", ())]
    chosen = set(map(id, on_cluster))
    items[:] = on_cluster + [item for item in items if id(item) not in chosen]


def _skip_reason() -> str | None:
    if os.name != "posix" or os.geteuid() != 0:
        return "SLURM test cluster needs root (its daemons run without systemd); not root here"
    if shutil.which("dpkg-query") is None:
        return "SLURM test cluster needs Debian packages; dpkg/apt not available here"
    if shutil.which("slurmctld") is None and shutil.which("apt-get") is None:
        return "SLURM packages not installed and apt-get unavailable"
    return None


@pytest.fixture(scope="session")
def slurm_cluster():
    """Start the cluster; yield the environment for its client tools; stop it."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    # Not under pytest's tmp_path: that is private to root (0700) and the daemons run as
    # munge and mysql, who must reach their folders.
    state_dir = Path(tempfile.mkdtemp(prefix="benchval-slurm-"))
    state_dir.chmod(0o755)
    env = {**os.environ, "BENCHVAL_SLURM_DIR": str(state_dir)}
    started = time.monotonic()
    result = subprocess.run(
        [str(CLUSTER_SH), "start"], env=env, capture_output=True, text=True, timeout=600, check=False
    )
    if result.returncode == CANNOT_RUN:
        pytest.skip(f"SLURM test cluster cannot run here: {result.stderr.strip().splitlines()[-1]}")
    if result.returncode != 0:
        subprocess.run([str(CLUSTER_SH), "stop"], env=env, capture_output=True, text=True, check=False)
        pytest.fail(f"cluster.sh start failed:\n{result.stderr}")
    print(f"SLURM cluster up in {time.monotonic() - started:.1f} s")
    pids = [int(line.split()[1]) for line in (state_dir / "pids").read_text().splitlines()]
    env["SLURM_CONF"] = str(state_dir / "etc" / "slurm.conf")
    try:
        yield env
    finally:
        stop = subprocess.run(
            [str(CLUSTER_SH), "stop"], env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert stop.returncode == 0, f"cluster.sh stop failed:\n{stop.stderr}"
        deadline = time.monotonic() + 15  # a SIGKILLed daemon may take a moment to go on a loaded machine
        while (alive := [pid for pid in pids if _alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not alive, f"daemons still running 15 s after cluster.sh stop: {alive}"
        shutil.rmtree(state_dir, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped) counts as stopped.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())
