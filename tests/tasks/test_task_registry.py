"""A task is one folder (src/benchval/tasks/catalogue/<task>/), found by name: a new folder needs no list
edited, an unknown name says the closest known one, the docs' index is generated from the folders, and
editing one folder reruns only the tasks it concerns (docs/tasks.md, "Adding a task")."""

from __future__ import annotations

import shutil
import sys

import pytest
import yaml
from snakemake.utils import update_config, validate

from benchval.plumbing.config import catalogue_files, check_references
from benchval.plumbing.config_error import ConfigError
from benchval.plumbing.folders import REPO_ROOT, TASK_FOLDERS, default_mirror
from benchval.jobs.reruns import code_digest, module_dependencies
from benchval.tasks import base, registry
from benchval.tasks.index import BEGIN, END, PAGE, index_markdown, updated_page

CONFIG_CATALOGUE = REPO_ROOT / "config" / "catalogue"

TASK_YAML = """\
tasks:
  my_task:
    adapter: my_task_adapter
    dataset: null
    role: downstream
    pairs_with: null
    axes: [social]
    scoring_mode: mc
    metrics: [accuracy, macro_f1]
    label: My task
    paper_n: null
    options: {}
    exclude_ids: null
"""

ADAPTER = """\
from benchval.tasks.base import Item, register


@register("my_task_adapter")
def my_task(source, report):
    return [Item("my_task-1", "A context", [" yes", " no"], 0, 1)]
"""


@pytest.fixture
def folders_with_a_new_task(tmp_path, monkeypatch):
    """A copy of the task folders plus one new folder, my_task/ (task.yaml, adapter.py, README.md)."""
    root = tmp_path / "catalogue"
    shutil.copytree(TASK_FOLDERS, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "my_task").mkdir()
    (root / "my_task" / "task.yaml").write_text(TASK_YAML, encoding="utf-8")
    (root / "my_task" / "adapter.py").write_text(ADAPTER, encoding="utf-8")
    (root / "my_task" / "README.md").write_text("# My task (`my_task`)\n", encoding="utf-8")
    monkeypatch.setattr(registry, "_ADAPTERS", dict(registry._ADAPTERS))
    yield root
    sys.modules.pop("benchval.tasks.catalogue.my_task.adapter", None)


def test_a_new_task_folder_is_found_without_editing_any_list(folders_with_a_new_task):
    root = folders_with_a_new_task
    assert registry.task_folder("my_task", root) == root / "my_task"
    assert registry.adapter_file("my_task_adapter", root) == root / "my_task" / "adapter.py"
    adapter = registry.get_adapter("my_task_adapter", root)
    items = list(adapter(base.AdapterInput("my_task", {}, {}, 1), base.FilterReport("my_task")))
    assert [item.id for item in items] == ["my_task-1"]
    # the workflow's config gets it: merged, validated and its references checked as the Snakefile does
    files = catalogue_files(CONFIG_CATALOGUE, task_folders=root)
    assert root / "my_task" / "task.yaml" in files
    config = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())
    for path in files:
        update_config(config, yaml.safe_load(path.read_text()))
    validate(config, str(REPO_ROOT / "workflow" / "schemas" / "config.schema.yaml"))
    check_references(config)
    assert config["tasks"]["my_task"]["adapter"] == "my_task_adapter"
    assert "| `my_task` | My task |" in index_markdown(root)
    (root / "notes_only").mkdir()  # a folder without task.yaml is no task
    (root / "notes_only" / "README.md").write_text("# Not a task\n")
    assert "notes_only" not in registry.task_folders(root)
    with pytest.raises(ConfigError, match="unknown task 'notes_only'"):
        registry.task_folder("notes_only", root)


def test_the_folders_hold_every_task_and_adapter_of_the_paper():
    folders = registry.task_folders()
    assert len(folders) == 21 and {"winogrande", "piqa_rup__changed_goals", "cei", "gpqa_diamond"} <= set(folders)
    catalogue = registry.folder_catalogue()
    assert set(catalogue["tasks"]) == set(folders)
    adapters = registry.adapter_files()
    assert {spec["adapter"] for spec in catalogue["tasks"].values()} <= set(adapters)
    assert all(path.parent.parent == TASK_FOLDERS for path in adapters.values())
    assert adapters["cei"] == TASK_FOLDERS / "cei" / "adapter.py"


def test_an_unknown_task_or_adapter_says_the_closest_and_the_registry():
    with pytest.raises(ConfigError, match=r"unknown task 'winogrnde'; did you mean 'winogrande'\? \(the task registry"):
        registry.task_folder("winogrnde")
    with pytest.raises(KeyError, match=r"did you mean 'imppres_presupposition'\?.*task registry"):
        base.get_adapter("imppres_presuposition")
    with pytest.raises(KeyError) as nothing_close:
        base.get_adapter("zzzz")
    assert "did you mean" not in str(nothing_close.value) and "blimp" in str(nothing_close.value)


def test_a_task_yaml_of_another_task_or_a_dataset_declared_twice_is_rejected(tmp_path):
    root = tmp_path / "catalogue"
    shutil.copytree(TASK_FOLDERS, root, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    assert len(catalogue_files(CONFIG_CATALOGUE, task_folders=root)) == 21 + len(list(CONFIG_CATALOGUE.glob("*.yaml")))
    shutil.copytree(root / "cei", root / "cei_copy")  # declares `cei`, not `cei_copy`
    with pytest.raises(ConfigError, match=r"cei_copy/task.yaml: a task folder's task.yaml declares exactly its own"):
        catalogue_files(CONFIG_CATALOGUE, task_folders=root)
    text = (root / "cei_copy" / "task.yaml").read_text().replace("\n  cei:\n    adapter", "\n  cei_copy:\n    adapter")
    (root / "cei_copy" / "task.yaml").write_text(text)  # its own task now, but datasets.cei again
    with pytest.raises(ConfigError, match=r"datasets.cei is declared in .*cei/task.yaml too"):
        catalogue_files(CONFIG_CATALOGUE, task_folders=root)


def test_a_repeated_key_in_a_task_yaml_names_the_file_and_line(tmp_path):
    from benchval.plumbing.strict_yaml import DuplicateKeyError, check_no_duplicate_keys

    path = tmp_path / "cei" / "task.yaml"
    path.parent.mkdir()
    path.write_text((TASK_FOLDERS / "cei" / "task.yaml").read_text().replace("    role:", "    label: X\n    role:"))
    with pytest.raises(DuplicateKeyError, match=r"cei/task.yaml:\d+: key 'label' given twice"):
        check_no_duplicate_keys([path])


def test_the_index_in_the_docs_is_generated_from_the_folders():
    text = PAGE.read_text(encoding="utf-8")
    block = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert block == index_markdown(), "stale index: run python -m benchval.tasks.index"
    assert block.count("\n| `") == 21
    stale = updated_page(text, index_markdown().replace("| `cei` | CEI |", "| `cei` | CEI (old) |"))
    assert stale[stale.index(BEGIN) : stale.index(END) + len(END)] != index_markdown()  # a stale row is seen


def test_an_adapter_is_a_code_dependency_of_its_tasks_only():
    """prepare_task's script imports no task folder (the registry imports one by file when asked); each task's
    own param adapter_code digests the module that registers its adapter, and what that imports."""
    script = module_dependencies(REPO_ROOT / "workflow" / "scripts" / "prepare_task.py")
    assert not any(TASK_FOLDERS in path.parents for path in script)
    cei = code_digest(registry.adapter_file("cei"))
    trip = code_digest(registry.adapter_file("trip"))
    assert "script:adapter.py" in cei and "benchval/tasks/base.py" in cei
    assert cei["script:adapter.py"] != trip["script:adapter.py"]
    assert "benchval/tasks/downstream/near_duplicates.py" in trip and "benchval/tasks/commonsense.py" not in cei
    assert "benchval/tasks/commonsense.py" in code_digest(registry.adapter_file("winogrande"))


# ---- editing one folder reruns only its task (dry runs on a copy of this checkout) --------------------

TARGETS = ["results/tasks/cei.parquet", "results/tasks/blimp.parquet", "results/tasks/winogrande.parquet"]


@pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
def test_editing_one_task_folder_reruns_only_that_task(tmp_path):
    from benchval.testing.snakemake_run import job_counts, offline_env, run_snakemake, snakemake_command
    from benchval.testing.tiny import tiny_workflow_config

    checkout = tmp_path / "checkout"
    for name in ("workflow", "config", "src"):
        shutil.copytree(REPO_ROOT / name, checkout / name, ignore=shutil.ignore_patterns("__pycache__"))
    workdir = tmp_path / "run"
    configfile = tiny_workflow_config(workdir, n_items=4, n_bootstrap=100)
    command = snakemake_command(workdir, configfile, cores=1, snakefile=checkout / "workflow" / "Snakefile")
    env = offline_env(PYTHONPATH=str(checkout / "src"))

    def planned(*args: str) -> tuple[dict[str, int], set[str]]:
        result, _ = run_snakemake([*command, *args, *TARGETS], env=env, timeout=600)
        assert result.returncode == 0, result.stderr[-3000:]
        output = result.stdout + result.stderr
        return job_counts(output), {target for target in TARGETS if f"output: {target}" in output}

    assert planned()[0] == {"prepare_task": 3}
    assert planned("-n") == ({}, set())

    def after_edit(path, old: str | None, new: str) -> tuple[dict[str, int], set[str]]:
        original = path.read_text()
        path.write_text(original.replace(old, new) if old else original + new)
        assert path.read_text() != original
        try:
            return planned("-n")
        finally:
            path.write_text(original)

    folders = checkout / "src" / "benchval" / "tasks" / "catalogue"
    cei, winogrande = {"results/tasks/cei.parquet"}, {"results/tasks/winogrande.parquet"}
    assert after_edit(folders / "cei" / "task.yaml", "min_agreement: 1.0", "min_agreement: 0.9") == (
        {"prepare_task": 1},
        cei,
    )
    assert after_edit(folders / "cei" / "adapter.py", None, "\n# an edit\n") == ({"prepare_task": 1}, cei)
    assert after_edit(folders / "cei" / "README.md", None, "\nAn edit of the notes.\n") == ({}, set())
    shared = checkout / "src" / "benchval" / "tasks" / "commonsense.py"
    assert after_edit(shared, None, "\n# an edit\n") == ({"prepare_task": 1}, winogrande)
