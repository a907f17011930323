"""A key's edit replans exactly the rules that name it (benchval.jobs.rule_settings) and what follows them,
one rule family at a time, on the default config (docs/workflow.md, "What reruns when").

The finished run is a stand-in, made in seconds: every output of the default target's jobs is created
empty and ``snakemake --touch`` records each job as finished (its params included), as a real run would.
A dry run of the unchanged config then plans nothing; each edit below plans its family's rules and what
follows them, and an edit of a key no rule of the default run names plans nothing.

Its mirror is a copy of the shared one (``mirror:`` set to it), so that the tests at the end can copy it
again (same bytes, new modification times, as the shared mirror is re-created every session) and change a
byte: raw files are read by content (their declared sha256, else their digest), never by modification time.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from benchval.analysis.outputs import FIGURE_STEMS, STEP_TABLES
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.snakemake_run import job_counts, run_snakemake, snakemake_command

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror"),
]
TARGET = "results/figures"
# outputs declared with directory(): made as folders
DIRECTORY_OUTPUTS = {"results/figures", "results/tables", "resources/kg/litwd1k.oxigraph"}
# what publishes, reports or summarises every study's outputs: any statistic's change reaches them
# (report_config shows the whole config, so any edit reruns it, on purpose: workflow/rules/report.smk)
PUBLISHING = {"publish", "report_figures", "report_tables", "report_config", "findings", "report_scoreboard"}
# every rule of a study's analysis chain (workflow/rules/analysis.smk) and its robustness
ANALYSIS = {
    *(f"analysis_{step}" for step in STEP_TABLES),
    "analysis_fdr",
    *(f"analysis_figure_{stem}" for stem in FIGURE_STEMS),
    "task_reliability",
    "power_planning",
    "specification_robustness",
    "report_specification_robustness",
}


def _dry_run(workdir: Path, configfile: Path, *args: str) -> str:
    result, _ = run_snakemake([*snakemake_command(workdir, configfile, cores=1), *args, TARGET], timeout=600)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result.stdout + result.stderr


def _planned_outputs(output: str) -> list[str]:
    """Every output file of a dry run's jobs (its ``output:`` lines, unfolded: --logger-benchval-unfolded)."""
    return [path for line in re.findall(r"^\s+output: (.+)$", output, re.MULTILINE) for path in line.split(", ")]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A working directory where the default config's target is finished (outputs empty, metadata recorded)."""
    workdir = tmp_path_factory.mktemp("finished")
    configfile = workdir / "config.yaml"
    config = yaml.safe_load((REPO_ROOT / "config/config.yaml").read_text())
    config["mirror"] = str(_copy_mirror(workdir.parent / f"{workdir.name}-mirror"))
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    headers = _study_headers(yaml.safe_load(configfile.read_text()))
    for path in _planned_outputs(_dry_run(workdir, configfile, "-n", "--logger-benchval-unfolded")):
        target = workdir / path
        if path in DIRECTORY_OUTPUTS:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(headers.get(path, ""))
    _dry_run(workdir, configfile, "--touch", "--forceall")  # every job, so that each records its metadata
    return workdir, configfile


def _copy_mirror(mirror: Path) -> Path:
    """A writable copy of the shared mirror at ``mirror``, every file with a new modification time (and
    inode), as the shared mirror is re-created at the start of every session; copied again at the same path."""
    if mirror.exists():
        shutil.rmtree(mirror)
    shutil.copytree(default_mirror(), mirror, copy_function=shutil.copyfile)
    for path in (mirror, *mirror.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return mirror


def _study_headers(config: dict) -> dict[str, str]:
    """The header of each csv study a rule writes (planning reads its columns: planning_checks)."""
    headers = {}
    for study in config.get("studies", {}).values():
        if study.get("source") == "csv" and study["path"].startswith("results/"):
            columns = [*study["columns"].values(), *(spec["column"] for spec in study["tasks"].values())]
            headers[study["path"]] = ",".join(columns) + "\n"
    return headers


def _edited(finished, name: str, edit) -> Path:
    workdir, configfile = finished
    config = yaml.safe_load(configfile.read_text())
    edit(config)
    path = workdir / f"edit-{name}.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _set(path: str, value):
    """An edit setting the dotted config key ``path`` to ``value``."""

    def edit(config):
        *parents, last = path.split(".") if not path.startswith("models.") else ["models", *path[7:].rsplit(".", 1)]
        node = config
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value

    return edit


# family -> (the edited key, its new value, the rules that name it, the rules that may follow them)
EDITS = {
    "analysis": (
        "analysis.ridge_alpha",
        2.0,
        # power planning reads ridge_alpha, the specification grid the whole section
        {"analysis_lofo", "power_planning", "specification_robustness"},
        {"analysis_figure_fig3_lofo_delta_r2", "report_specification_robustness"},
    ),
    "atlas": ("atlas.forest_top_k", 7, {"atlas_forest", "atlas_explorer"}, set()),
    "items": ("items.fdr_alpha", 0.1, {"items_study"}, {"items_figures", "items_report"}),
    "robustness": ("robustness.power.n_sim", 123, {"power_planning"}, set()),
    "scoring": (
        "scoring.normalisation",
        "sum",
        {"calibrate", "evaluate"},
        {"score_table", "scoreboard", "paired_comparisons", *ANALYSIS},
    ),
    "commonwhy_eval": (
        "commonwhy_eval.judge_check.bar",
        0.9,
        {"commonwhy_eval_judge_canaries", "commonwhy_eval_judge_check"},
        {
            "commonwhy_eval_judge_check_report",
            "commonwhy_eval_judge",
            "commonwhy_eval_factscore",
            "commonwhy_eval_table2",
            "commonwhy_eval_criterion",
            "score_table",
            "scoreboard",
            "paired_comparisons",
            *ANALYSIS,
        },
    ),
}
# keys no rule's job reads: a job's niceness, a model's job size (planning) and placement (read beside the
# scoring rules' trigger), the progress bar
UNNAMED = {
    "local": ("local.light_job_niceness", 5),
    "model_planning": ("models.smollm2-135m.job_size_b", 2.0),
    "model_placement": ("models.smollm2-135m.cpu_offload_gb", 2),
    "scoring_progress": ("scoring.progress", False),
}


@pytest.fixture(scope="module")
def plans(finished):
    workdir, configfile = finished
    runs = {"unchanged": configfile}
    for family, (key, value, *_) in EDITS.items():
        runs[family] = _edited(finished, family, _set(key, value))
    for name, (key, value) in UNNAMED.items():
        runs[name] = _edited(finished, name, _set(key, value))
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(_dry_run, workdir, path, "-n") for name, path in runs.items()}
        planned = {name: job_counts(future.result()) for name, future in futures.items()}
    for name, jobs in planned.items():
        print(f"{name}: {jobs}")
    return planned


def test_the_finished_stand_in_plans_nothing(plans):
    assert plans["unchanged"] == {}


@pytest.mark.parametrize("family", sorted(EDITS))
def test_a_key_edit_replans_its_rules_and_what_follows(plans, family):
    key, _, named, following = EDITS[family]
    rules = {re.sub(r"_model_\w+$", "", rule) for rule in plans[family]}  # score_model_<m> -> score
    print(family, key, sorted(rules))
    assert named <= rules, rules
    assert rules <= named | following | PUBLISHING, rules - named - following - PUBLISHING


@pytest.mark.parametrize("name", sorted(UNNAMED))
def test_a_key_no_rule_names_plans_only_the_config_page(plans, name):
    """Only the report's config page, which shows the whole config, and the publishing that includes it."""
    assert plans[name] == {"report_config": 1, "publish": 1}


# ---- the raw-data mirror: read by content (docs/workflow.md, "What reruns when") ----------------------
# A byte changed in a file the catalogue declares: commonwhy/Head.json (datasets.commonwhy.files.head)
CHANGED_RAW = "commonwhy/Head.json"
CHANGED_RULE = "commonwhy_published"
# A user's own score table (outside the mirror, declared nowhere): the obsscaling study read from it
USER_TABLE = "user/obsscaling.csv"
SCORE_TABLE = "results/studies/obsscaling/score_table.csv"


def _padded_copy(source: Path, target: Path) -> None:
    """``source`` with a column no study reads, over 1 MB: above Snakemake's own checksum limit (it compares
    smaller inputs by content itself), so that only the rule's content param can keep a copy from rerunning."""
    header, *rows = source.read_text(encoding="utf-8").splitlines()
    padding = "x" * (1_100_000 // max(len(rows), 1) + 1)
    target.write_text("\n".join([f"{header},padding", *(f"{row},{padding}" for row in rows)]) + "\n", encoding="utf-8")


def _flip_a_byte(path: Path) -> str:
    """``path`` with its last byte changed (size kept); its new sha256."""
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    return hashlib.sha256(bytes(data)).hexdigest()


@pytest.fixture(scope="module")
def mirror_plans(finished, plans):
    """Plans of the finished stand-in after its mirror is copied again, after a byte of a declared file
    changes (its declaration kept, then changed), and after a user's own table changes. After ``plans``:
    it changes the mirror the other tests plan against."""
    workdir, configfile = finished
    config = yaml.safe_load(configfile.read_text())
    mirror = _copy_mirror(Path(config["mirror"]))
    planned = _plans(workdir, recopied=(configfile,), forced=(configfile, "--forcerun", CHANGED_RULE))
    new_sha256 = _flip_a_byte(mirror / CHANGED_RAW)
    declared = _edited(finished, "declared", _set("datasets.commonwhy.files.head.sha256", new_sha256))
    planned |= _plans(workdir, byte_changed=(configfile,), declaration_changed=(declared,))
    shutil.copyfile(default_mirror() / CHANGED_RAW, mirror / CHANGED_RAW)  # the shared bytes again

    (workdir / USER_TABLE).parent.mkdir(exist_ok=True)
    _padded_copy(default_mirror() / "obsscaling/base_llm_benchmark_eval.csv", workdir / USER_TABLE)
    user = _edited(finished, "user", _set("studies.obsscaling.path", USER_TABLE))
    _dry_run(workdir, user, "--touch")  # the user's table recorded as read
    shutil.copyfile(workdir / USER_TABLE, workdir / "user/copy.csv")
    later = (workdir / SCORE_TABLE).stat().st_mtime + 60
    os.utime(workdir / "user/copy.csv", (later, later))  # newer than every output
    (workdir / "user/copy.csv").replace(workdir / USER_TABLE)  # the same bytes, a new mtime and inode
    planned |= _plans(workdir, user_recopied=(user,))
    _flip_a_byte(workdir / USER_TABLE)
    planned |= _plans(workdir, user_changed=(user,), user_forced=(user, "--forcerun", SCORE_TABLE))
    for name, jobs in planned.items():
        print(f"{name}: {jobs}")
    return planned


def _plans(workdir: Path, **runs: tuple) -> dict[str, dict[str, int]]:
    """{name: jobs} of dry runs, two at a time, each (config file, more arguments)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(_dry_run, workdir, *run, "-n") for name, run in runs.items()}
        return {name: job_counts(future.result()) for name, future in futures.items()}


def _without_the_target(plan: dict[str, int]) -> dict[str, int]:
    """A --forcerun plan less rule ``all``, the target's own job (it computes nothing)."""
    return {rule: n for rule, n in plan.items() if rule != "all"}


def test_a_mirror_copied_again_plans_nothing(mirror_plans):
    """Same bytes, new modification times (the shared mirror is re-created every session)."""
    assert mirror_plans["recopied"] == {}


def test_a_changed_byte_under_its_old_declaration_plans_nothing(mirror_plans):
    """The declared sha256 names a raw file's content: the job that reads the file checks it against its
    declaration and stops naming it (tests/integrity/test_raw_checked_where_used.py)."""
    assert mirror_plans["byte_changed"] == {}


def test_a_changed_declaration_replans_exactly_its_rule_and_what_follows(mirror_plans):
    """A new declared sha256 (the catalogue's, as a new release of the file brings) is a new content: the
    rule that reads the file reruns, and what follows it (as --forcerun plans), and the config page."""
    planned = dict(mirror_plans["declaration_changed"])
    assert planned.pop("report_config") == 1  # it shows the whole config, the catalogue included
    assert planned.get(CHANGED_RULE) == 1
    assert planned == _without_the_target(mirror_plans["forced"])


def test_a_users_own_table_is_read_by_content(mirror_plans):
    assert mirror_plans["user_recopied"] == {}
    assert mirror_plans["user_changed"].get("import_score_table") == 1
    assert mirror_plans["user_changed"] == _without_the_target(mirror_plans["user_forced"])
