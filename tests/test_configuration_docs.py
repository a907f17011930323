"""docs/configuration.md's and config/README.md's section tables name every top-level section the config schema
knows, and config/README.md's file table every file under config/."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import yaml

from benchval.plumbing.folders import REPO_ROOT


def sections_in_table(markdown: str) -> set[str]:
    """The backquoted names in the first column of the section table (``| `a`, `b` | schema | ...``)."""
    table = markdown[markdown.index("| section | schema |") :].split("\n\n", 1)[0]
    names: set[str] = set()
    for row in table.splitlines()[2:]:
        first_cell = row.split("|")[1]
        names.update(re.findall(r"`([a-z_]+)`", first_cell))
    return names


def test_every_config_section_is_in_the_configuration_docs_table():
    schema = yaml.safe_load((REPO_ROOT / "workflow/schemas/config.schema.yaml").read_text())
    documented = sections_in_table((REPO_ROOT / "docs/configuration.md").read_text())
    assert set(schema["properties"]) - documented == set()
    assert documented - set(schema["properties"]) == set()


def test_a_table_missing_a_section_is_caught():
    markdown = (
        "| section | schema | what |\n|---|---|---|\n| `mirror` | config.schema.yaml | x |\n| `seed` | c | y |\n\nprose"
    )
    assert sections_in_table(markdown) == {"mirror", "seed"}
    assert {"mirror", "seed", "commonwhy_eval"} - sections_in_table(markdown) == {"commonwhy_eval"}


# config/README.md: the guide the Snakemake workflow catalog shows beside config/config.yaml

CONFIG_DIR = REPO_ROOT / "config"


def test_every_config_section_is_in_the_config_readme_table():
    schema = yaml.safe_load((REPO_ROOT / "workflow/schemas/config.schema.yaml").read_text())
    documented = sections_in_table((CONFIG_DIR / "README.md").read_text())
    assert set(schema["properties"]) - documented == set(), "sections missing from config/README.md"
    assert documented - set(schema["properties"]) == set(), "sections config/README.md names that the schema lacks"


def file_patterns_in_table(markdown: str) -> list[str]:
    """The backquoted names and patterns (``atlas/*.csv``) in the first column of the file table (``| file |``)."""
    table = markdown[markdown.index("| file | what it holds |") :].split("\n\n", 1)[0]
    return [name for row in table.splitlines()[2:] for name in re.findall(r"`([^`]+)`", row.split("|")[1])]


def undocumented_and_stale(folder: Path, patterns: list[str]) -> tuple[list[str], list[str]]:
    """(files under ``folder`` that no pattern names, patterns that name no file); README.md is the table's own,
    ``*.flock`` the git-ignored guard that benchval.models.lock writes beside the lock file when a model is prepared
    (the suite prepares one: benchval.testing.prepared_models)."""
    files = sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != "README.md" and not p.name.endswith(".flock")
    )
    undocumented = [name for name in files if not any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)]
    stale = [pattern for pattern in patterns if not any(fnmatch.fnmatchcase(name, pattern) for name in files)]
    return undocumented, stale


def test_every_file_under_config_is_in_the_config_readme_table():
    patterns = file_patterns_in_table((CONFIG_DIR / "README.md").read_text())
    assert "config.yaml" in patterns and "prompts/*.txt" in patterns  # the table was read
    assert undocumented_and_stale(CONFIG_DIR, patterns) == ([], [])


def test_a_new_config_file_and_a_removed_one_are_caught(tmp_path):
    for name in (
        "config.yaml",
        "prompts/judge.txt",
        "prompts/answer.txt",
        "atlas/new_table.csv",
        "README.md",
        "models.lock.yaml.flock",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    markdown = (
        "| file | what it holds |\n|---|---|\n| `config.yaml` | the study |\n| `prompts/*.txt` | prompts |\n"
        "| `paper.yaml`, `atlas/old_table.csv` | gone |\n\nprose"
    )
    patterns = file_patterns_in_table(markdown)
    assert patterns == ["config.yaml", "prompts/*.txt", "paper.yaml", "atlas/old_table.csv"]
    assert undocumented_and_stale(tmp_path, patterns) == (
        ["atlas/new_table.csv"],
        ["paper.yaml", "atlas/old_table.csv"],
    )
