"""How model jobs share the --cores budget and the machine's real cores (benchval.plumbing.job_threads)."""

from pathlib import Path

import pytest

from benchval.plumbing.job_threads import model_job_threads, passive_openmp_waits, torch_threads


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


class _Workflow:
    """The two things of Snakemake's Workflow the layout reads and sets: the --cores budget, global resources."""

    def __init__(self, cores, global_resources=()):
        self._cores = cores
        self.global_resources = dict.fromkeys(global_resources, 7)

    @property
    def cores(self):
        if self._cores is None:
            from snakemake.exceptions import WorkflowError

            raise WorkflowError("no local cores: a cluster run")
        return self._cores

    def register_resource(self, name, value):
        self.global_resources[name] = value


def _layout(at_once):
    from benchval.jobs.layout import workflow_layout

    return workflow_layout({"local": {"model_jobs_at_once": at_once}, "models": {}, "studies": {}})


def test_a_local_model_job_takes_one_budget_thread_a_slot_and_its_torch_share():
    layout = _layout(2)
    workflow = _Workflow(cores=8)
    assert layout.model_job_resources(workflow) == {"model_jobs": 1, "torch_threads": model_job_threads(8, 2)}
    layout.register_model_job_slots(workflow)
    assert workflow.global_resources == {"model_jobs": 2}


def test_a_cluster_run_and_a_users_own_limit_are_left_alone():
    layout = _layout(2)
    cluster = _Workflow(cores=None)
    assert layout.model_job_resources(cluster) == {}
    layout.register_model_job_slots(cluster)
    assert cluster.global_resources == {}
    own = _Workflow(cores=8, global_resources=["model_jobs"])  # --resources model_jobs=7
    layout.register_model_job_slots(own)
    assert own.global_resources == {"model_jobs": 7}


def test_idle_openmp_threads_sleep_unless_the_user_chose_a_policy():
    environ = {}
    assert passive_openmp_waits(environ) == "PASSIVE"
    assert environ == {"OMP_WAIT_POLICY": "PASSIVE"}
    chosen = {"OMP_WAIT_POLICY": "ACTIVE"}  # a user's own policy is kept, never overwritten
    assert passive_openmp_waits(chosen) == "ACTIVE"
    assert chosen == {"OMP_WAIT_POLICY": "ACTIVE"}


def test_the_snakefile_sets_the_wait_policy_for_the_jobs_it_starts():
    snakefile = (Path(__file__).resolve().parents[1] / "workflow" / "Snakefile").read_text(encoding="utf-8")
    assert "\npassive_openmp_waits(os.environ)\n" in snakefile
