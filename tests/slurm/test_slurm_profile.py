"""profiles/slurm on a real SLURM cluster: jobs go through sbatch, results equal a local run,
and a failing job ends the run promptly with the rule's name and log path.

Uses the toy workflow in tests/slurm/toy/ (prepare -> score per model x task -> table -> figure,
with the score rule's resources from benchval.jobs.cluster_resources.rule_resources, as in the real workflow).
"""

from __future__ import annotations

import filecmp
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from polling import FAST_STATUS_CHECKS
from slurm_accounting import sacct

from benchval.testing.snakemake_run import run_snakemake, snakemake_command

REPO = Path(__file__).resolve().parents[2]
TOY = REPO / "tests" / "slurm" / "toy" / "Snakefile"
PROFILE = REPO / "profiles" / "slurm"
# This 2-CPU test node cannot give the profile's 4 threads to score (one each lets two jobs run
# at once); faster status checks keep the test short (tests/slurm/polling.py). Everything else comes
# from the profile as users get it.
CLUSTER_ARGS = ["--profile", str(PROFILE), "--max-threads", "1", *FAST_STATUS_CHECKS]
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")


def snakemake(workdir: Path, *args: str, env=None, timeout=300) -> tuple[subprocess.CompletedProcess, float]:
    return run_snakemake([*snakemake_command(workdir, snakefile=TOY), *args], env=env, timeout=timeout)


def sacct_states(job_ids: list[str], env) -> dict[str, str]:
    return dict(line.split("|", 1) for line in sacct(job_ids, "JobID,State", env).strip().splitlines())


def result_files(workdir: Path) -> list[str]:
    return sorted(str(p.relative_to(workdir)) for p in (workdir / "results").rglob("*") if p.is_file())


@pytest.fixture(scope="module", autouse=True)
def failing_run(slurm_cluster, tmp_path_factory):
    """The run of test_failing_job_fails_run_with_rule_and_log, started as soon as the cluster is up:
    it mostly waits on SLURM (a failure, its retry, the status checks), so it runs beside the toy
    workflow's runs, in a working directory of its own. Yields the folder and the future result."""
    workdir = tmp_path_factory.mktemp("failing")
    arguments = ("results/broken/on_purpose.txt", *CLUSTER_ARGS, "--config", "fail=true")
    with ThreadPoolExecutor(max_workers=1) as beside:
        yield workdir, beside.submit(snakemake, workdir, *arguments, env=slurm_cluster, timeout=240)


def test_toy_workflow_on_slurm_equals_local_run(slurm_cluster, tmp_path):
    local, local_s = snakemake(tmp_path / "local", "--cores", "2")
    assert local.returncode == 0, local.stderr[-3000:]

    cluster, cluster_s = snakemake(tmp_path / "slurm", *CLUSTER_ARGS, env=slurm_cluster)
    print(f"local run {local_s:.1f} s, SLURM run {cluster_s:.1f} s")
    assert cluster.returncode == 0, cluster.stderr[-5000:]

    # Every job (8: 2 prepare_task, 4 score, score_table, figure) went through sbatch and
    # SLURM's accounting saw it complete.
    job_ids = SUBMITTED.findall(cluster.stderr)
    assert len(job_ids) == 8, cluster.stderr[-5000:]
    states = sacct_states(job_ids, slurm_cluster)
    assert states == {job_id: "COMPLETED" for job_id in job_ids}
    # The score jobs really ran inside SLURM allocations (their logs record SLURM_JOB_ID) ...
    score_log = (tmp_path / "slurm" / "logs" / "score" / "tiny-a" / "alpha.log").read_text()
    assert re.search(r"slurm_job_id=(\d+)", score_log).group(1) in job_ids
    # ... and asked for the resources computed from the model size (benchval.jobs.cluster_resources).
    accounting = sacct(job_ids, "JobID,ReqMem,Timelimit", slurm_cluster)
    assert "|4864M|00:31:00" in accounting  # tiny-a: 0.001 B params, fp32, CPU (hand-computed)

    files = result_files(tmp_path / "local")
    assert files == result_files(tmp_path / "slurm")
    assert "results/figures/toy/accuracy.png" in files
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "local", tmp_path / "slurm", files, shallow=False)
    assert not mismatch and not errors, f"cluster results differ from local: {mismatch + errors}"


def test_failing_job_fails_run_with_rule_and_log(slurm_cluster, failing_run):
    workdir, future = failing_run
    result, seconds = future.result()
    print(f"failing run ended after {seconds:.1f} s")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "Error in rule broken:" in output
    assert "log: logs/broken/on_purpose.log" in output
    assert re.search(r"\.snakemake/slurm_logs/rule_broken/\d+\.log", output)
    job_ids = SUBMITTED.findall(output)
    assert job_ids and set(sacct_states(job_ids, slurm_cluster).values()) == {"FAILED"}
    assert (workdir / "logs" / "broken" / "on_purpose.log").read_text().strip() == "this job fails on purpose"
