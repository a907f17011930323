"""docs/configuration.md's section table names every top-level section the config schema knows."""

from __future__ import annotations

import re

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
