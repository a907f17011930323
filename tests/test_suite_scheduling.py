"""How pytest-xdist shares the suite out (tests/conftest.py): the longest units of work first."""

from __future__ import annotations

import importlib.util
from collections import OrderedDict

from benchval.plumbing.folders import REPO_ROOT


def _suite_conftest():
    spec = importlib.util.spec_from_file_location("suite_conftest", REPO_ROOT / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Worker:
    def __init__(self):
        self.sent = []

    def send_runtest_some(self, indexes):
        self.sent.append(indexes)


def test_every_longest_unit_names_a_file_or_folder_of_the_suite():
    """A renamed file would silently lose its place at the front."""
    conftest = _suite_conftest()
    missing = [unit for unit in conftest.LONGEST_FIRST if not (REPO_ROOT / unit).exists()]
    assert not missing
    assert len(set(conftest.LONGEST_FIRST)) == len(conftest.LONGEST_FIRST)


def test_the_longest_units_go_out_first_and_the_rest_in_xdists_order():
    conftest = _suite_conftest()
    second_longest = conftest.LONGEST_FIRST[1]
    units = ["tests/test_a.py", second_longest, conftest.SLURM_TESTS, "tests/test_b.py"]
    nodeids = [f"{unit}::test_one" if unit.endswith(".py") else f"{unit}test_x.py::test_one" for unit in units]
    scheduler = conftest.FileScheduling.__new__(conftest.FileScheduling)
    worker = _Worker()
    scheduler.workqueue = OrderedDict((unit, {nodeid: False}) for unit, nodeid in zip(units, nodeids))
    scheduler.assigned_work = {}
    scheduler.registered_collections = {worker: nodeids}
    for _ in units:
        scheduler._assign_work_unit(worker)
    assert list(scheduler.assigned_work[worker]) == [conftest.SLURM_TESTS, second_longest, *units[::3]]
    assert worker.sent == [[2], [1], [0], [3]]
