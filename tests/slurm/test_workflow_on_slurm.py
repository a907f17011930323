"""The real benchval workflow through profiles/slurm: tiny local models, a few items, to the figures.

Runs the same small configuration twice -- locally and on the test SLURM cluster -- in two
working directories, and checks that every job of the cluster run went through sbatch and
that the results (items, scores, metrics, score tables, analysis tables, figure files) are the
same. Both runs use one thread per job, so even the floating-point sums agree exactly.

Marked slow: ~2 min locally and ~3.5 min on the one-node test cluster of a busy 2-core machine
(every SLURM job starts its own Snakemake), the two runs side by side. The toy-workflow tests
beside it prove the profile in ~2.5 minutes.
"""

from __future__ import annotations

import functools
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest
import yaml
from polling import FAST_STATUS_CHECKS
from slurm_accounting import sacct

from benchval.testing.snakemake_run import job_counts, run_snakemake, snakemake_command
from benchval.testing.tiny import tiny_workflow_config

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "profiles" / "slurm"
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")
SUBMITTED_JOB = re.compile(r"^Job (\d+) has been submitted with SLURM jobid \d+", re.MULTILINE)
# As small as the whole path allows: 2 models of 2 families, one original/reworked pair, one
# downstream task, 2 items each; one model scored per task (rule score, a job per task), the other
# per model (rule score_model_<model>, one job over its tasks: scoring_jobs per_model), so that both
# scoring layouts go through sbatch.
MODELS = ["tiny-a1", "tiny-b1"]
PER_MODEL = "tiny-a1"
PER_MODEL_RULE = "score_model_tiny_a1"
TASKS = ["winogrande", "winowhat", "cei"]
N_ITEMS = 2
# The scoring engine's tqdm bar (desc "score (<engine>)") with count, elapsed<remaining and rate, the rate
# followed by the engine's postfix or the closing bracket, e.g.
# "score (fast): 100%|██████████| 48/48 [00:03<00:00, 12.02req/s, items_s=6.0, tok_s=911]". Another bar of the
# same log ("Loading weights: ... 272/272 [00:00<00:00, 80.1it/s]") does not match.
PROGRESS_BAR = re.compile(r"score \([a-z]+\): +\d+%\|[^|]*\| *\d+/\d+ \[\d\d:\d\d<\d\d:\d\d, +[\d.]+req/s[,\]]")

pytestmark = pytest.mark.slow
TARGET = "results/figures"


@pytest.fixture(scope="module")
def tiny_config(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tiny_workflow")
    path = tiny_workflow_config(root, n_items=N_ITEMS, n_bootstrap=100)
    config = yaml.safe_load(path.read_text())
    config["models"] = {name: config["models"][name] for name in MODELS}
    config["models"][PER_MODEL]["scoring_jobs"] = "per_model"
    config["studies"] = {"tiny": {"source": "scored", "models": MODELS, "tasks": TASKS}}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def workdir_for(tmp_path: Path, name: str) -> Path:
    """A working directory for a run with the tiny config.

    The rules read some files by paths relative to the working directory (config/exclusions/,
    config/prompts/), so those are linked in; config/config.yaml is not, so that Snakemake skips
    the Snakefile's configfile and the tiny config (a complete config) is the only one.
    """
    workdir = tmp_path / name
    (workdir / "config").mkdir(parents=True)
    for entry in (REPO / "config").iterdir():
        if entry.name != "config.yaml":
            (workdir / "config" / entry.name).symlink_to(entry)
    return workdir


def snakemake(workdir: Path, config: Path, *args: str, env=None, timeout=600):
    command = [*snakemake_command(workdir, config), "--max-threads", "1", *args, TARGET]
    return run_snakemake(command, env=env, timeout=timeout)


@pytest.fixture(scope="module")
def workflow_ready(tiny_config, tmp_path_factory):
    """Fail early, with Snakemake's reason, when the real workflow cannot even be planned (a
    workflow that does not plan is broken, not something to skip)."""
    workdir = workdir_for(tmp_path_factory.mktemp("dry"), "dry")
    result, _ = snakemake(workdir, tiny_config, "-n", timeout=300)
    if result.returncode != 0:
        pytest.fail(f"the real workflow does not plan: {result.stderr.strip()[-3000:]}")


JOB_BLOCK = re.compile(r"^(?:local)?rule (\w+):\n((?:    .*\n)+)", re.MULTILINE)
LOCAL_JOB_BLOCK = re.compile(r"^localrule (\w+):\n(?:    .*\n)*?    jobid: (\d+)$", re.MULTILINE)
REMOTE_JOB_BLOCK = re.compile(r"^rule (\w+):\n(?:    .*\n)*?    jobid: (\d+)$", re.MULTILINE)
LOCALRULES = re.compile(r"^localrules:\n((?:    \w+,?\n)+)", re.MULTILINE)


RULE_BLOCK = re.compile(r"^(?P<indent> *)rule ?(?P<name>\w*):\n(?P<body>(?:(?P=indent) {4}.*\n|\n)+)", re.MULTILINE)
GENERATED_NAME = re.compile(r'name:\s*\n\s*(?:f"(\w+?)\{|"(\w+)"\s*\+)')


@functools.cache
def declared_localrules() -> tuple[frozenset[str], frozenset[str]]:
    """The rules the Snakefile and workflow/rules/*.smk run on the submitting node: names in
    ``localrules:`` blocks and rules with ``localrule: True``; for rules made in a loop (``name:
    f"analysis_{_step}"``) the name's fixed prefix. Returns (names, prefixes)."""
    names, prefixes = set(), set()
    for path in [REPO / "workflow" / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]:
        text = path.read_text()
        for block in LOCALRULES.findall(text):
            names |= {name.strip(" ,") for name in block.split()}
        for rule in RULE_BLOCK.finditer(text):
            if "localrule: True" not in rule.group("body"):
                continue
            if rule.group("name"):
                names.add(rule.group("name"))
            elif generated := GENERATED_NAME.search(rule.group("body")):
                prefixes.add(generated.group(1) or generated.group(2))
    return frozenset(names), frozenset(prefixes)


def is_declared_local(rule: str) -> bool:
    names, prefixes = declared_localrules()
    return rule == "all" or rule in names or any(rule.startswith(prefix) for prefix in prefixes)


def check_every_job_went_through_sbatch(output: str) -> None:
    """docs/cluster.md: every job goes through sbatch except the declared localrules (and the
    target rule ``all``). Each planned job is found in the output, as local or as submitted."""
    local = dict((int(jobid), rule) for rule, jobid in LOCAL_JOB_BLOCK.findall(output))
    remote = dict((int(jobid), rule) for rule, jobid in REMOTE_JOB_BLOCK.findall(output))
    planned = job_counts(output)
    found = sorted([*local.values(), *remote.values()])
    assert found == sorted(rule for rule, n in planned.items() for _ in range(n)), (planned, local, remote)
    undeclared = {rule for rule in local.values() if not is_declared_local(rule)}
    assert not undeclared, f"jobs run locally that no localrules declaration names: {undeclared}"
    submitted = {int(job) for job in SUBMITTED_JOB.findall(output)}
    not_submitted = {job: rule for job, rule in remote.items() if job not in submitted}
    assert remote and not not_submitted, f"jobs never submitted to SLURM: {not_submitted}"
    assert submitted <= set(remote), submitted - set(remote)


def jobs_without_rule_log(output: str) -> list[str]:
    """Jobs in Snakemake's output whose log is not logs/<rule>/... (or that have no log)."""
    bad = []
    for rule, block in JOB_BLOCK.findall(output):
        if rule == "all" or "output:" not in block:
            continue
        logs = re.search(r"^    log: (.*)$", block, re.MULTILINE)
        if not logs or not logs.group(1).split(", ")[0].startswith(f"logs/{rule}/"):
            bad.append(f"{rule}: {logs.group(1) if logs else 'no log'}")
    return bad


def frames_equal(left: Path, right: Path) -> None:
    reader = pd.read_parquet if left.suffix == ".parquet" else pd.read_csv
    pd.testing.assert_frame_equal(reader(left), reader(right), check_exact=True, obj=str(left.name))


def test_real_workflow_on_slurm_equals_local_run(workflow_ready, tiny_config, slurm_cluster, tmp_path):
    local_dir, slurm_dir = workdir_for(tmp_path, "local"), workdir_for(tmp_path, "slurm")
    # The two runs side by side (separate working directories): the SLURM run mostly waits on the
    # cluster's scheduling and status checks, the local run computes meanwhile.
    with ThreadPoolExecutor(max_workers=1) as beside:
        local_run = beside.submit(snakemake, local_dir, tiny_config, "--cores", "2")
        cluster, cluster_s = snakemake(
            slurm_dir, tiny_config, "--profile", str(PROFILE), *FAST_STATUS_CHECKS, env=slurm_cluster
        )
        local, local_s = local_run.result()
    print(f"real workflow: local {local_s:.1f} s, SLURM {cluster_s:.1f} s (side by side)")
    assert local.returncode == 0, local.stderr[-5000:]
    assert cluster.returncode == 0, cluster.stderr[-5000:]

    job_ids = SUBMITTED.findall(cluster.stderr)
    check_every_job_went_through_sbatch(cluster.stderr)
    rules = set(re.findall(r"slurm_logs/rule_(\w+?)/", cluster.stderr))
    assert {"prepare_model", "prepare_task", "score", PER_MODEL_RULE} <= rules, rules
    # the analysis chain runs on the submitting node (docs/cluster.md, "What runs where")
    ran_locally = set(dict(LOCAL_JOB_BLOCK.findall(cluster.stderr)))
    assert {"analysis_lofo", "analysis_fdr", "analysis_figure_fig3_lofo_delta_r2"} <= ran_locally, ran_locally
    states = sacct(job_ids, "JobID,State", slurm_cluster)
    assert {line.split("|")[1] for line in states.split()} == {"COMPLETED"}, states

    # Same outputs, same content.
    for pattern in (
        "results/tasks/*.parquet",
        "results/scores/*/*.parquet",
        "results/metrics/*/*.csv",
        "results/studies/*/score_table.csv",
        "results/studies/*/tables/*.csv",
    ):
        local_files = sorted(p.relative_to(local_dir) for p in local_dir.glob(pattern))
        slurm_files = sorted(p.relative_to(slurm_dir) for p in slurm_dir.glob(pattern))
        assert local_files and local_files == slurm_files, pattern
        for relative in local_files:
            frames_equal(local_dir / relative, slurm_dir / relative)
    local_figures = sorted(p.relative_to(local_dir) for p in (local_dir / "results" / "figures").rglob("*.png"))
    assert local_figures, "no figure was made"
    assert local_figures == sorted(p.relative_to(slurm_dir) for p in (slurm_dir / "results" / "figures").rglob("*.png"))
    # Every job logged under logs/<rule>/<wildcards>.log; scoring shows its progress bar with rate and ETA.
    assert JOB_BLOCK.search(local.stderr)
    assert not jobs_without_rule_log(local.stderr), jobs_without_rule_log(local.stderr)
    for rule in rules:
        assert any((slurm_dir / "logs" / rule).rglob("*.log")), f"no log under logs/{rule}/"
    per_task_logs = [f"score/{model}/{task}.log" for model in MODELS if model != PER_MODEL for task in TASKS]
    for log in [*per_task_logs, f"{PER_MODEL_RULE}/{PER_MODEL}.log"]:
        text = (slurm_dir / "logs" / log).read_text(errors="replace")
        assert PROGRESS_BAR.search(text), f"no scoring progress bar in logs/{log}"


def test_the_progress_bar_check_finds_the_scoring_bar_and_no_other():
    scoring = "score (fast):  46%|████▌     | 88/192 [00:06<00:08, 12.65req/s]"
    with_postfix = "score (fast): 100%|██████████| 48/48 [00:03<00:00, 12.02req/s, items_s=6.0, tok_s=911]"
    reference = "score (reference): 100%|██████████| 3/3 [00:01<00:00,  2.50req/s]"
    assert all(PROGRESS_BAR.search(bar) for bar in (scoring, with_postfix, reference))
    loading = "Loading weights: 100%|██████████| 272/272 [00:00<00:00, 801.20it/s]"
    started = "score (fast):   0%|          | 0/48 [00:00<?, ?req/s]"  # no rate and no ETA yet
    assert not any(PROGRESS_BAR.search(bar) for bar in (loading, started))
