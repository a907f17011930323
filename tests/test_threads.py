"""How model jobs share the --cores budget and the machine's real cores (benchval.plumbing.job_threads)."""

import pytest

from benchval.plumbing.job_threads import model_job_threads, torch_threads


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
