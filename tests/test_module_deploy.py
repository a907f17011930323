"""The workflow deploys as a Snakemake module (snakedeploy) and its dry run plans what the repository's does.

Before issue 37, snakedeploy warned that no workflow/Snakefile exists, and the deployed module's dry run
failed ("'tasks' is a required property", then a schema dump): Snakemake skips a module's configfile
directives, so the catalogue (config/catalogue/*.yaml) never reached the module's config. docs/workflow.md,
"The entry: workflow/Snakefile, also as a module".
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from benchval.plumbing.config import merge_catalogue_under
from benchval.plumbing.folders import REPO_ROOT
from benchval.testing.snakemake_run import job_counts, offline_env

SNAKEDEPLOY = Path(sys.executable).with_name("snakedeploy")
MISSING_ENTRY = "Snakefile path not found in traditional path"


def _checkout_copy(destination: Path) -> Path:
    """This checkout's files as git sees them (tracked and new, not ignored): the repository snakedeploy
    copies (its local-path provider copies the whole folder, the virtual environment included)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (item.decode() for item in listed)):
        source = REPO_ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination


def _deploy(repo: Path, dest: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SNAKEDEPLOY), "deploy-workflow", str(repo), str(dest), "--branch", "main", "--name", "benchval"],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _dry_run(workdir: Path, *args: str) -> dict[str, int]:
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--cores", "1", *args],
        cwd=workdir,
        env=offline_env(PYTHONPATH=str(REPO_ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return job_counts(result.stdout + result.stderr)


def test_snakedeploy_deploys_the_workflow_and_its_module_plans_the_repositorys_jobs(tmp_path):
    repo = _checkout_copy(tmp_path / "benchval")
    deployed = _deploy(repo, tmp_path / "study")
    assert deployed.returncode == 0, deployed.stderr[-3000:]
    assert MISSING_ENTRY not in deployed.stdout + deployed.stderr
    snakefile = tmp_path / "study" / "workflow" / "Snakefile"
    text = snakefile.read_text()
    assert "module benchval:" in text and "use rule * from benchval" in text
    assert (tmp_path / "study" / "config" / "catalogue").is_dir()  # the catalogue travels with config/
    # snakedeploy 0.17.1's local-path provider writes the module's snakefile relative to the source
    # repository, which Snakemake reads relative to the deploying Snakefile: point it at the copy.
    assert '"workflow/Snakefile"' in text
    snakefile.write_text(text.replace('"workflow/Snakefile"', f'"{repo / "workflow" / "Snakefile"}"'))
    in_module = _dry_run(tmp_path / "study")
    in_repository = _dry_run(tmp_path / "study", "--snakefile", str(repo / "workflow" / "Snakefile"))
    assert in_module == in_repository and in_module["prepare_task"] > 0 and in_module["all"] == 1


def test_snakedeploy_warns_where_there_is_no_workflow_snakefile(tmp_path):
    """The check above can fail: a repository with its Snakefile at the root gets snakedeploy's warning."""
    repo = tmp_path / "flat"
    (repo / "config").mkdir(parents=True)
    (repo / "config" / "config.yaml").write_text("a: 1\n")
    (repo / "Snakefile").write_text("rule all:\n    shell: 'true'\n")
    deployed = _deploy(repo, tmp_path / "study")
    assert MISSING_ENTRY in deployed.stdout + deployed.stderr


def test_in_a_module_the_catalogue_merges_under_the_deploying_config(tmp_path):
    (tmp_path / "a.yaml").write_text(yaml.safe_dump({"tasks": {"t1": {"n": 1, "keep": "c"}, "t2": {"n": 2}}}))
    (tmp_path / "b.yaml").write_text(yaml.safe_dump({"datasets": {"d": {"files": {}}}}))
    config = {"tasks": {"t1": {"n": 9}, "mine": {"n": 3}}, "seed": 1}
    merge_catalogue_under(config, [tmp_path / "a.yaml", tmp_path / "b.yaml"])
    assert config == {
        "tasks": {"t1": {"n": 9, "keep": "c"}, "t2": {"n": 2}, "mine": {"n": 3}},  # the config's value wins
        "datasets": {"d": {"files": {}}},
        "seed": 1,
    }


def test_the_workflow_catalog_metadata_is_there_and_says_what_a_user_needs():
    """The Snakemake workflow catalog reads .snakemake-workflow-catalog.yml, workflow/Snakefile and
    config/README.md + config/config.yaml (its "standardized usage")."""
    metadata = yaml.safe_load((REPO_ROOT / ".snakemake-workflow-catalog.yml").read_text())
    usage = metadata["usage"]
    assert set(usage) == {"mandatory-flags", "software-stack-deployment", "report"}
    assert "benchval" in usage["mandatory-flags"]["desc"] and usage["report"] is True
    assert set(usage["software-stack-deployment"]) == {"conda", "apptainer", "apptainer+conda"}
    for path in ("workflow/Snakefile", "config/README.md", "config/config.yaml"):
        assert (REPO_ROOT / path).is_file(), path
    assert not (REPO_ROOT / "Snakefile").exists()  # one entry: Snakemake would prefer a root Snakefile


def _deployment_commands() -> list[str]:
    """The indented block of docs/workflow.md under "Deployed as a Snakemake module", line by line."""
    text = (REPO_ROOT / "docs" / "workflow.md").read_text(encoding="utf-8")
    block = text.split("**Deployed as a Snakemake module**", 1)[1].split("\n\n", 2)[1]
    return [line[4:] for line in block.splitlines() if line.startswith("    ")]


def test_the_documented_deployment_works_as_written_from_a_local_checkout(tmp_path):
    """Issue 47: the docs' commands, run as written from the root of a local checkout (no network), deploy the
    workflow beside it and its dry run plans (before: a placeholder GitHub URL, and from a local path the
    module's `snakefile:` resolved to my-study/workflow/workflow/Snakefile)."""
    repo = _checkout_copy(tmp_path / "benchval")
    commands = _deployment_commands()
    assert commands and commands[0].startswith("snakedeploy deploy-workflow"), commands
    bin_dir = str(Path(sys.executable).parent)
    result = subprocess.run(
        ["bash", "-ec", "\n".join(commands)],
        cwd=repo,
        env=offline_env(PYTHONPATH=str(REPO_ROOT / "src"), PATH=f"{bin_dir}:{os.environ['PATH']}"),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert job_counts(result.stdout + result.stderr)["all"] == 1
