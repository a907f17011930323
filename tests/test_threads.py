"""How model jobs share the --cores budget and the machine's real cores (benchval.plumbing.job_threads)."""

from types import SimpleNamespace

import pytest

from benchval.plumbing.job_threads import job_torch_threads, model_job_threads, torch_threads


@pytest.mark.parametrize(
    ("cores", "at_once", "threads", "fit_side_by_side", "left_for_light_jobs"),
    [
        (8, 2, 3, 2, 2),
        (2, 2, 1, 2, 0),
        (3, 2, 2, 1, 1),
        (1, 2, 1, 1, 0),
        (8, 1, 8, 1, 0),
        (16, 3, 5, 3, 1),
        (16, 2, 6, 2, 4),
    ],
)
def test_model_jobs_never_exceed_the_configured_number_side_by_side(
    cores, at_once, threads, fit_side_by_side, left_for_light_jobs
):
    assert model_job_threads(cores, at_once) == threads
    assert cores // threads == fit_side_by_side
    assert fit_side_by_side <= at_once
    assert cores - fit_side_by_side * threads == left_for_light_jobs


def test_torch_threads_are_the_jobs_share_of_the_real_cores():
    # --cores 8 on a 2-core laptop, two model jobs at once: one torch thread each, never four
    assert torch_threads(4, 2, machine_cores=2) == 1
    assert torch_threads(8, 1, machine_cores=2) == 2
    # a cluster job asking for fewer threads than its node has keeps its threads
    assert torch_threads(8, 2, machine_cores=64) == 8
    assert torch_threads(1, 4, machine_cores=2) == 1


def test_job_torch_threads_reads_the_config_of_the_job():
    job = SimpleNamespace(threads=4, config={"local": {"model_jobs_at_once": 2}})
    assert job_torch_threads(job) == torch_threads(4, 2)
    alone = SimpleNamespace(threads=4, config={})
    assert job_torch_threads(alone) == torch_threads(4, 1)
