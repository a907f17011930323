"""Fixtures shared by every test folder, and how pytest-xdist shares the tests out."""

from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config, validate
from xdist.scheduler import LoadFileScheduling

from benchval.plumbing.config import catalogue_files
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.skip_guard import pytest_runtest_logreport, pytest_sessionfinish  # noqa: F401 (hooks)

SLURM_TESTS = "tests/slurm/"


# The units of work (test files; tests/slurm/ as one) that take longest, longest first: they start
# first, so that the suite does not end with one worker running a long file while the other idles.
# Order from `pytest --durations` on 2 cores (2026-12-06); a stale entry costs balance, never a test.
LONGEST_FIRST = (
    SLURM_TESTS,
    "tests/test_workflow_e2e.py",
    "tests/test_rule_family_reruns.py",
    "tests/commonwhy_eval/test_commonwhy_eval_workflow.py",
    "tests/test_docs_commands.py",
    "tests/test_cli.py",
    "tests/tasks/test_task_registry.py",
    "tests/models/test_model_integrity.py",
    "tests/analysis/test_figure_legibility.py",
    "tests/analysis/test_analysis_workflow.py",
    "tests/report/test_report_browser.py",
    "tests/silent/test_study_target.py",
    "tests/test_rehearsal.py",
)


class FileScheduling(LoadFileScheduling):
    """One test file per worker at a time, so that a module fixture (e.g. the finished tiny run of
    tests/test_workflow_e2e.py) is built once; and tests/slurm/ as one unit, because its session-scoped
    SLURM cluster cannot run twice on one machine (fixed ports, one /etc/slurm/slurm.conf link).
    The units of :data:`LONGEST_FIRST` go out first, in that order; the rest in xdist's order.
    (xdist's own ``--dist loadgroup`` marks do not take effect under pytest 9.2: it renames node ids
    in a way pytest 9.2 no longer reads.)"""

    def _split_scope(self, nodeid: str) -> str:
        return SLURM_TESTS if nodeid.startswith(SLURM_TESTS) else super()._split_scope(nodeid)

    def _assign_work_unit(self, node) -> None:
        longest = min(self.workqueue, key=_longest_first_rank)  # the first of equals: xdist's order
        self.workqueue.move_to_end(longest, last=False)
        super()._assign_work_unit(node)


def _longest_first_rank(scope: str) -> int:
    return LONGEST_FIRST.index(scope) if scope in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_xdist_make_scheduler(config, log):
    return FileScheduling(config, log)


@pytest.fixture(scope="session", autouse=True)
def one_torch_thread():
    """One torch thread in each test process: pytest runs two workers on two cores, and a model that
    takes two threads per worker spins waiting for a core (tests/scoring/test_real_models.py: 58 CPU-s
    with torch's default threads, 15 CPU-s with one, on the loaded shared machine). Snakemake jobs the
    tests start set their own threads (benchval.plumbing.job_threads)."""
    import torch

    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The shared raw-data mirror; tests that need it skip with this reason when it is absent."""
    found = default_mirror()
    if found is None:
        pytest.skip("raw-data mirror ../shared/data/raw is absent (benchval.plumbing.folders.default_mirror())")
    return found


@pytest.fixture(scope="module")
def default_config() -> dict:
    """config.yaml merged with the catalogue and validated (defaults filled), as the workflow sees it;
    built once per test module, so a module may edit its copy."""
    config = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    for catalogue in catalogue_files(REPO_ROOT / "config" / "catalogue"):
        update_config(config, yaml.safe_load(catalogue.read_text()))
    validate(config, str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml"))
    return config
