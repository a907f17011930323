"""Every shell command that README.md and docs/*.md show is run: a ``snakemake`` command is dry-run here as
written (``-n`` added, in a copy of the checkout), any other is run by the test named for it in
:data:`RUN_BY` (the test file must contain the command's words), or is listed in :data:`NOT_RUN` with why.

Before issue 37, docs/configuration.md put targets after ``--configfile`` (``snakemake --cores 2
--configfile config/config.yaml my-lmeval.yaml study_my_lmeval``; ``... --configfile override.yaml
results/figures``), so Snakemake read the targets as config files (``FileNotFoundError: 'study_my_lmeval'``,
``IsADirectoryError: 'results/figures'``); and ``--forcerun prepare_model resources/models/NAME/...`` took
the file as a second rule to force, leaving no target. :func:`placement_problems` finds all three.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.testing.doc_commands import ShownCommand, shown_commands
from benchval.testing.snakemake_run import offline_env

DOCS = [REPO_ROOT / "README.md", *sorted(REPO_ROOT.glob("docs/*.md"))]
HUB_UNREACHABLE = re.compile(r"(?m)^models\.[\w.-]+\.source\.id: '[^']+' cannot be reached \(.*; run where .*$")

# command prefix -> (test file, words that file must contain): where the suite runs the command
RUN_BY = {
    "./install.sh": (".ci/run", "./install.sh"),
    ". .venv/bin/activate": (".ci/run", "./install.sh"),
    ".venv/bin/python -m pytest": (".ci/run", "pytest"),
    "python -m benchval.testing.rehearsal": ("tests/test_rehearsal.py", "benchval.testing.rehearsal"),
    "python -m benchval.cluster_planning.gpu_hours": ("tests/test_cost.py", "gpu_hours"),
    "python -m benchval.jobs.reruns": ("tests/silent/test_dry_run_reasons.py", "benchval.jobs.reruns"),
    "python benchmarks/gpu_check.py": ("tests/scoring/test_gpu_check.py", "gpu_check"),
    "python -m benchval.generation.server": ("tests/commonwhy_eval/test_endpoint.py", "benchval.generation.server"),
    "snakedeploy deploy-workflow": ("tests/test_module_deploy.py", "deploy-workflow"),
    "cd ../my-study": ("tests/test_module_deploy.py", "deploy-workflow"),
    "sed -i ": ("tests/test_module_deploy.py", "deploy-workflow"),  # the deployment's snakefile: (docs/workflow.md)
    "tests/slurm/cluster.sh": ("tests/slurm/conftest.py", "cluster.sh"),
    "BENCHVAL_SLURM_DIR=": ("tests/slurm/conftest.py", "BENCHVAL_SLURM_DIR"),
    "export SLURM_CONF=": ("tests/slurm/conftest.py", "SLURM_CONF"),
    "python -m benchval.project_files.generated_files": (
        "tests/test_generated_files.py",
        "benchval.project_files.generated_files",
    ),
    "python -m benchval.tasks.index": ("tests/tasks/test_task_registry.py", "benchval.tasks.index"),
    "ruff ": ("tests/test_lint.py", "ruff"),
    "benchval ": ("tests/test_cli.py", "benchval"),
    "snakefmt ": ("tests/test_lint.py", "snakefmt"),
    "BENCHVAL_ENDPOINT_DRY_RUN=1 snakemake": ("tests/commonwhy_eval/test_endpoint.py", "BENCHVAL_ENDPOINT_DRY_RUN"),
    "BENCHVAL_PLAN_WITHOUT_HUB=1 snakemake": ("tests/slurm/test_paper_config.py", "BENCHVAL_PLAN_WITHOUT_HUB"),
}
# command prefix -> why no test runs it
NOT_RUN = {
    "BENCHVAL_TORCH=cuda ./install.sh": "installs CUDA torch: a GPU machine's install",
    "pip install torch==2.13.0 --index-url": "CUDA wheels from the PyTorch index: a GPU machine's install",
    'pip install -e ".[test,dev]"': "a developer's git hook tools (the checks: tests/test_lint.py)",
    "pre-commit install": "installs git hooks in a developer's clone",
    "python -c": "prints a docstring (help())",
    ".venv/bin/python -m benchval.analysis.power": "writes docs/power_paper_*.csv: minutes of simulation",
    "snakemake --help": "Snakemake's own help",
    ".venv/bin/python benchmarks/": "a measurement (benchmarks/: minutes of work, not a test)",
    "python benchmarks/bench_dtype.py": "a measurement (benchmarks/: minutes of work, not a test)",
    "PYTHONPATH=src .venv/bin/python benchmarks/": "a measurement (benchmarks/: minutes of work, not a test)",
}
# a --report command needs a finished run: parsed here, run by these tests
REPORT_RUN_BY = ("tests/test_workflow_e2e.py", "--report")
# placeholders of the docs -> a value of the default config
PLACEHOLDERS = {"NAME": "smollm2-135m", "OWNER": "example"}
# options whose values are config files, rule names (taking every word after them: nargs '+' or '*')
CONFIG_FILE_OPTIONS = ("--configfile", "--configfiles")
RULE_OPTIONS = ("--forcerun", "-R", "--until", "-U", "--omit-from", "-O", "--allowed-rules")


def commands() -> list[ShownCommand]:
    return shown_commands(DOCS, REPO_ROOT)


def snakemake_commands() -> list[ShownCommand]:
    return [c for c in commands() if c.words[0] == "snakemake"]


def _parsed(words: list[str]):
    from snakemake.cli import get_argument_parser

    return get_argument_parser().parse_args(words[1:])


def placement_problems(command: ShownCommand, docs_files: set[str]) -> list[str]:
    """What Snakemake's own parser makes of the command that its writer did not mean: a config file
    that is not a YAML file (a target read as one), a rule option given a path (a target taken as a rule)."""
    if "--help" in command.words:
        return []
    args = _parsed(command.words)
    problems = []
    for name in map(str, args.configfile or []):
        if not name.endswith((".yaml", ".yml")) or not (name in docs_files or (REPO_ROOT / name).is_file()):
            problems.append(f"{command}: --configfile reads {name!r} as a config file (put targets before it)")
    for option in ("forcerun", "until", "omit_from"):
        for value in getattr(args, option, None) or []:
            if "/" in value:
                problems.append(
                    f"{command}: --{option.replace('_', '-')} reads {value!r} as a rule (put targets first)"
                )
    return problems


def _docs_yaml_files() -> dict[str, str]:
    """Config files the docs define in a code block that starts with ``# <name>.yaml``, or that a study's
    docs define under a heading (my-lmeval.yaml: "Declare the study ... e.g. `my-lmeval.yaml`")."""
    found = {}
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"(?m)^    # ([\w.-]+\.yaml)\n((?:    .+\n)+)", text):
            found[match.group(1)] = "\n".join(line[4:] for line in match.group(2).splitlines())
        for match in re.finditer(r"`([\w.-]+\.yaml)`:\n\n\s*```yaml\n(.*?)```", text, re.S):
            found[match.group(1)] = re.sub(r"(?m)^   ", "", match.group(2))
    return found


def test_every_shown_command_is_run_somewhere():
    unplaced = []
    for command in commands():
        if command.words[0] == "snakemake":
            continue
        run_by = next((RUN_BY[p] for p in RUN_BY if command.text.startswith(p)), None)
        if run_by is not None:
            test_file, words = run_by
            assert words in (REPO_ROOT / test_file).read_text(encoding="utf-8"), (str(command), test_file)
        elif not any(command.text.startswith(p) for p in NOT_RUN):
            unplaced.append(str(command))
    assert unplaced == [], "commands of the docs that no test runs and no reason excuses"
    assert REPORT_RUN_BY[1] in (REPO_ROOT / REPORT_RUN_BY[0]).read_text(encoding="utf-8")


def test_every_snakemake_command_puts_its_targets_where_snakemake_reads_them():
    files = set(_docs_yaml_files())
    assert {"override.yaml", "my-lmeval.yaml"} <= files
    assert [p for c in snakemake_commands() for p in placement_problems(c, files)] == []


@pytest.mark.parametrize(
    "text, expected",
    [  # the docs' lines before issue 37
        ("snakemake --cores 2 --configfile config/config.yaml my-lmeval.yaml study_my_lmeval", "'study_my_lmeval'"),
        ("snakemake -n --cores 2 --configfile my-boot.yaml results/figures", "'results/figures'"),
        ("snakemake --cores 2 --forcerun prepare_model resources/models/NAME/benchval-model.json", "as a rule"),
    ],
)
def test_a_target_after_configfile_or_forcerun_is_caught(text, expected):
    problems = placement_problems(ShownCommand("docs/x.md", 1, text), {"my-lmeval.yaml", "my-boot.yaml"})
    assert len(problems) == 1 and expected in problems[0]


def test_the_extractor_finds_block_inline_and_continued_commands(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text(
        "Run `snakemake --cores 2 all` now.\n\n    snakemake --cores 1 \\\n        results/figures\n\n"
        "```bash\n./install.sh && pytest -q   # tests\n```\n\n- a list item, `ruff` alone is a word\n"
    )
    assert [str(c) for c in shown_commands([doc], tmp_path)] == [
        "d.md:3: snakemake --cores 1 results/figures",
        "d.md:7: ./install.sh",
        "d.md:7: pytest -q",
        "d.md:1: snakemake --cores 2 all",
    ]


def _checkout(destination: Path) -> Path:
    for name in ("workflow", "config", "profiles", "benchmarks", "tests/slurm/toy"):
        shutil.copytree(REPO_ROOT / name, destination / name, ignore=shutil.ignore_patterns("__pycache__", "results"))
    for name, text in _docs_yaml_files().items():
        (destination / name).write_text(text)
    study = yaml.safe_load((destination / "my-lmeval.yaml").read_text())["studies"]["my_lmeval"]
    (destination / study["path"]).mkdir(parents=True, exist_ok=True)
    return destination


def _dry_run_words(command: ShownCommand, tmp: Path) -> list[str]:
    """The command with ``-n``, its placeholders filled and its /tmp/ folders under the test's ``tmp``."""
    words = [PLACEHOLDERS.get(w, w.replace("NAME", PLACEHOLDERS["NAME"])) for w in command.words]
    words = [w.replace("/tmp/", f"{tmp}/") for w in words]
    return [sys.executable, "-m", "snakemake", "-n", *words[1:]]


DRY_RUN = sorted(
    {c.text: c for c in snakemake_commands() if not {"--report", "--help"} & set(c.words)}.values(),
    key=str,
)


def _shared_words(command: ShownCommand) -> tuple[str, ...]:
    """The command less its targets: commands that agree on these are dry-run together."""
    targets = set(_parsed(command.words).targets)
    return tuple(w for w in command.words if w not in targets)


def _with_targets_of(command: ShownCommand, others: list[ShownCommand]) -> ShownCommand:
    """``command`` with the targets of ``others`` added right after its own first target (a target
    after ``--configfile`` would be read as a config file)."""
    words = command.words
    first = words.index(_parsed(words).targets[0])
    extra = [t for other in others for t in _parsed(other.words).targets]
    return ShownCommand(command.path, command.line, shlex.join(words[: first + 1] + extra + words[first + 1 :]))


def dry_run_groups(commands: list[ShownCommand]) -> dict[str, ShownCommand]:
    """Command text -> the one dry run that covers it: commands with the same words but for their
    targets share a run with all their targets (one Snakemake start and DAG instead of several)."""
    by_words: dict[tuple[str, ...], list[ShownCommand]] = {}
    for command in commands:
        key = _shared_words(command) if _parsed(command.words).targets else (command.text,)
        by_words.setdefault(key, []).append(command)
    groups = {}
    for members in by_words.values():
        run = _with_targets_of(members[0], members[1:]) if len(members) > 1 else members[0]
        groups.update({member.text: run for member in members})
    return groups


def test_commands_that_differ_only_in_targets_share_one_dry_run():
    a, b, c = (
        ShownCommand("d.md", n, t)
        for n, t in enumerate(
            [
                "snakemake --cores 2 x/a.png --configfile o.yaml",
                "snakemake --cores 2 y/b.md --configfile o.yaml",
                "snakemake --cores 8 x/a.png --configfile o.yaml",
            ]
        )
    )
    groups = dry_run_groups([a, b, c])
    assert groups[a.text] is groups[b.text] and groups[c.text] is c
    assert groups[a.text].words == ["snakemake", "--cores", "2", "x/a.png", "y/b.md", "--configfile", "o.yaml"]
    assert _parsed(groups[a.text].words).targets == ["x/a.png", "y/b.md"]


@pytest.fixture(scope="module")
def rehearsal_folder(tmp_path_factory) -> Path:
    """The rehearsal's folder, built once by the docs' build command (docs/cluster.md) and copied
    where each command that uses it names it."""
    folder = tmp_path_factory.mktemp("rehearsal") / "built"
    build = [sys.executable, "-m", "benchval.testing.rehearsal", "build", str(folder)]
    subprocess.run(build, cwd=REPO_ROOT, env=offline_env(PYTHONPATH=str(REPO_ROOT / "src")), check=True, timeout=600)
    return folder


_dry_runs: dict[str, tuple[list[str], subprocess.CompletedProcess]] = {}  # shared run text -> its result


def _dry_run(run: ShownCommand, tmp_path: Path, rehearsal_folder) -> tuple[list[str], subprocess.CompletedProcess]:
    if run.text in _dry_runs:
        return _dry_runs[run.text]
    workdir = _checkout(tmp_path / "checkout")
    words = _dry_run_words(run, tmp_path)
    if "config/rehearsal.yaml" in words:  # the docs build the rehearsal's folder first (docs/cluster.md)
        shutil.copytree(rehearsal_folder(), workdir / words[words.index("--directory") + 1])
    env = offline_env(PYTHONPATH=str(REPO_ROOT / "src"))
    result = subprocess.run(words, cwd=workdir, env=env, capture_output=True, text=True, timeout=600)
    _dry_runs[run.text] = words, result
    return words, result


@pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
@pytest.mark.parametrize("command", DRY_RUN, ids=[f"{c.path}:{c.line}" for c in DRY_RUN])
def test_every_snakemake_command_of_the_docs_dry_runs(command, tmp_path, request):
    run = dry_run_groups(DRY_RUN)[command.text]
    words, result = _dry_run(run, tmp_path, lambda: request.getfixturevalue("rehearsal_folder"))
    output = result.stdout + result.stderr
    if result.returncode != 0 and "config/paper.yaml" in words and HUB_UNREACHABLE.search(output):
        # the paper's 23 Hugging Face models, here without the Hub: the planning check's one line
        assert len(HUB_UNREACHABLE.findall(output)) == 1, output[-3000:]
        return
    assert result.returncode == 0, f"{command}\n{shlex.join(words)}\n{output[-3000:]}"
