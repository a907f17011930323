"""Names that become rule names or paths are identifiers, checked at planning (benchval.plumbing.identifiers;
issue 42, "Names are identifiers").

Before: study names ``.`` and ``..`` passed the schema (study ``..`` wrote results/score_table.csv), an atlas
criterion beginning with ``../`` planned a write outside the repository, two studies differing only in
``.``/``_``/``-`` failed with a rule-name clash naming neither study, and a symlink under results/ pointing at a
foreign file stood as a finished output.
"""

from __future__ import annotations

import os

import pytest
import yaml
from test_planning_errors import _dry_run, _error_lines

from benchval.plumbing.config_error import ConfigError
from benchval.plumbing.identifiers import (
    IdentifierError,
    check_config_names,
    check_names,
    check_no_foreign_symlinks,
    rule_key,
)

REFUSED = [".", "..", "../x", "a/b", "a\\b", "a b", "a\nb", "a\u202eb", "a\u200bb", "", "-x", "<img src=x>", "x" * 101]


@pytest.mark.parametrize("name", REFUSED)
def test_a_name_that_is_not_an_identifier_is_refused_naming_it_and_its_path(name):
    with pytest.raises(IdentifierError, match=r"^studies: .* is not an identifier .* results/studies/<name>/"):
        check_names("studies", [name], "results/studies/<name>/")


def test_identifiers_pass():
    check_names("studies", ["default", "open_llm", "MT-bench", "Qwen2.5-0.5B", "x" * 100], "results/studies/<name>/")


def test_two_names_of_one_rule_are_refused_naming_both():
    assert rule_key("my.study") == rule_key("My-study") == rule_key("my_study") == "my_study"
    with pytest.raises(IdentifierError, match=r"^studies: 'my\.study' and 'my-study' would share one rule or path"):
        check_names("studies", ["my.study", "my-study"], "rule study_<name>")


def test_the_config_names_checked():
    config = {
        "studies": {"ok": {"source": "csv", "tasks": {"hellaswag": {}, "../up": {}}}},
        "models": {"m": {}},
    }
    with pytest.raises(ConfigError, match=r"^studies\.ok\.tasks: '\.\./up' is not an identifier"):
        check_config_names(config)
    config["studies"]["ok"]["tasks"] = {"hellaswag": {}}
    config["atlas"] = {"human_preference": {"criteria": ["arena_elo", "../../escape"]}}
    with pytest.raises(ConfigError, match=r"^atlas\.human_preference\.criteria: '\.\./\.\./escape'"):
        check_config_names(config)
    config["atlas"] = {}
    with pytest.raises(ConfigError, match=r"^commonwhy_eval \(systems\): 'a\.b' and 'a_b'"):
        check_config_names(config, systems=["a.b", "a_b"])
    check_config_names(config, systems=["qwen", "kbbinder-qwen"])


def test_a_symlink_leaving_results_is_refused_one_inside_is_not(tmp_path):
    results = tmp_path / "results"
    (results / "studies" / "s").mkdir(parents=True)
    (results / "studies" / "s" / "score_table.csv").write_text("x\n")
    os.symlink(results / "studies" / "s" / "score_table.csv", results / "inside.csv")
    check_no_foreign_symlinks(results)
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("not ours\n")
    os.symlink(foreign, results / "studies" / "s" / "tasks.csv")
    with pytest.raises(IdentifierError, match=r"tasks\.csv is a symlink to .*foreign\.txt, outside .*results/"):
        check_no_foreign_symlinks(results)


def _overlay(tmp_path, studies: dict):
    table = tmp_path / "scores.csv"
    table.write_text("name,fam,size,A,B\n" + "".join(f"m{i},f{i % 3},{i + 1},0.{i},0.{9 - i}\n" for i in range(6)))
    study = {
        "source": "csv",
        "path": str(table),
        "columns": {"model": "name", "family": "fam", "size_b": "size"},
        "tasks": {"a": {"column": "A", "role": "cs_original"}, "b": {"column": "B", "role": "downstream"}},
    }
    overlay = tmp_path / "mine.yaml"
    overlay.write_text(yaml.safe_dump({"studies": {name: study for name in studies}}))
    return overlay


def test_the_dry_run_refuses_a_study_named_dot_dot_in_one_line(tmp_path):
    result = _dry_run(tmp_path / "run", str(_overlay(tmp_path, {"..": 1})), "--", "results/figures")
    assert result.returncode == 1
    [line] = _error_lines(result, "studies: '..'")
    assert "is not an identifier" in line and "results/studies/<name>/" in line
    assert not (tmp_path / "run" / "results").exists()


def test_the_dry_run_names_both_studies_of_one_rule(tmp_path):
    result = _dry_run(
        tmp_path / "run", str(_overlay(tmp_path, {"my.study": 1, "my-study": 1})), "--", "results/figures"
    )
    assert result.returncode == 1
    [line] = _error_lines(result, "studies: ")
    assert "would share one rule or path" in line and "'my.study'" in line and "'my-study'" in line
