"""Errors at planning time, each in one line naming the key, and dry runs that write nothing (issue 37).

Before: a mistyped target got Snakemake's ``MissingRuleException`` with no hint; a csv study's column typo
failed only when its import job ran; a Hugging Face id that could not be reached planned its jobs without a
word and failed in the job; a dry run wrote resources/models/_lock/*.json and
results/summary/published_check.stamp.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from benchval.models.lock import LOCK_VERSION, sync_entry_stamps
from benchval.plumbing.command_line import is_dry_run, requested_targets, target_problem
from benchval.plumbing.folders import REPO_ROOT, default_mirror
from benchval.plumbing.config_error import ConfigError
from benchval.plumbing.planning_checks import check_hf_models, study_column_problems, unreachable_hf_model
from benchval.plumbing.published_folders import check_input
from benchval.testing.snakemake_run import offline_env

needs_mirror = pytest.mark.skipif(default_mirror() is None, reason="needs the shared raw-data mirror")
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def _dry_run(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    command = [SNAKEMAKE, "-n", "--cores", "1", "--directory", str(workdir)]
    command += ["--configfile", str(REPO_ROOT / "config/config.yaml"), *args]
    return subprocess.run(
        command,
        cwd=REPO_ROOT,
        env=offline_env(PYTHONPATH=str(REPO_ROOT / "src")),
        capture_output=True,
        text=True,
        timeout=600,
    )


def _error_lines(result: subprocess.CompletedProcess, start: str) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if line.startswith(start)]


@needs_mirror
def test_a_dry_run_writes_nothing(tmp_path):
    result = _dry_run(tmp_path, "--", "results/figures")
    assert result.returncode == 0, result.stderr[-3000:]
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert [p for p in written if not p.startswith(".snakemake/")] == []  # Snakemake's own folder only


@needs_mirror
def test_a_mistyped_target_fails_in_one_line_naming_the_closest(tmp_path):
    result = _dry_run(tmp_path, "--", "results/figure")
    assert result.returncode == 1
    [line] = _error_lines(result, "target 'results/figure'")
    assert "closest: results/figures" in line and "before --configfile" in line


@needs_mirror
def test_a_column_typo_fails_the_dry_run_naming_the_key(tmp_path):
    table = tmp_path / "scores.csv"
    table.write_text(
        "name,fam,size,HellaSwag,PIQA\n" + "".join(f"m{i},f{i % 3},{i + 1},0.{i},0.{9 - i}\n" for i in range(6))
    )
    study = {
        "source": "csv",
        "path": str(table),
        "columns": {"model": "name", "family": "fam", "size_b": "size"},
        "tasks": {
            "hellaswag": {"column": "Hellaswag", "role": "cs_original"},
            "piqa": {"column": "PIQA", "role": "downstream"},
        },
    }
    overlay = tmp_path / "mine.yaml"
    overlay.write_text(yaml.safe_dump({"studies": {"mine": study}}))
    result = _dry_run(tmp_path / "run", str(overlay), "--", "study_mine")
    assert result.returncode == 1
    [line] = _error_lines(result, "studies.mine.")
    assert line == f"studies.mine.tasks.hellaswag.column: 'Hellaswag' is not a column of {table} (closest: 'HellaSwag')"


def test_column_problems_name_every_key_and_skip_files_a_rule_writes(tmp_path):
    (tmp_path / "t.csv").write_text("model,family,size_b,a\n")
    studies = {
        "s": {
            "source": "csv",
            "path": "{mirror}/t.csv",
            "columns": {"model": "model", "family": "familly", "size_b": "size_b"},
            "tasks": {"x": {"column": "a"}, "y": {"column": "zzz"}},
        },
        "later": {"source": "csv", "path": "results/atlas/studies/later.csv", "columns": {}, "tasks": {}},
        "lm": {"source": "lm_eval", "path": "runs"},
    }
    expand = lambda path: Path(path.replace("{mirror}", str(tmp_path)))  # noqa: E731
    assert study_column_problems(studies, expand) == [
        f"studies.s.columns.family: 'familly' is not a column of {tmp_path / 't.csv'} (closest: 'family')",
        f"studies.s.tasks.y.column: 'zzz' is not a column of {tmp_path / 't.csv'}",
    ]


def test_an_unreachable_model_is_the_first_one_named_and_the_rest_counted():
    models = {
        "prepared": {"source": {"type": "hf", "id": "org/prepared"}},
        "cached": {"source": {"type": "hf", "id": "org/cached"}},
        "wheel": {"source": {"type": "gguf_wheels"}},
        "gone": {"source": {"type": "hf", "id": "org/gone", "revision": "abc"}},
        "later": {"source": {"type": "hf", "id": "org/later"}},
    }
    asked = []

    def reachable(repo_id, revision, timeout):
        asked.append((repo_id, revision))
        return "ConnectError: no route"

    message = unreachable_hf_model(
        models, list(models), lambda m: m == "prepared", cached=lambda i, r: i == "org/cached", reachable=reachable
    )
    assert asked == [("org/gone", "abc")]  # not the prepared, cached or wheel models; none after the first
    assert message.startswith("models.gone.source.id: 'org/gone' cannot be reached (ConnectError: no route); 1 more")
    assert unreachable_hf_model(models, ["wheel", "prepared"], lambda m: m == "prepared") is None


def test_planning_without_the_hub_is_said_explicitly(monkeypatch):
    gone = {"gone": {"source": {"type": "hf", "id": "org/gone-for-good"}}}
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # no request leaves the machine; the model is in no cache
    with pytest.raises(ConfigError, match="BENCHVAL_PLAN_WITHOUT_HUB=1 plans without this check"):
        check_hf_models(gone, ["gone"], lambda m: False)
    monkeypatch.setenv("BENCHVAL_PLAN_WITHOUT_HUB", "1")
    check_hf_models(gone, ["gone"], lambda m: False)  # said explicitly: planned, fails when its job runs


def test_the_lock_stamps_in_a_dry_run_are_read_not_written(tmp_path):
    lock = tmp_path / "models.lock.yaml"
    lock.write_text(
        yaml.safe_dump({"lock_version": LOCK_VERSION, "models": {"a": {"commit": "1"}, "b": {"commit": "2"}}})
    )
    folder = tmp_path / "_lock"
    assert sync_entry_stamps(lock, ["a", "b"], folder, write=False) == {"a": str(lock), "b": str(lock)}
    assert not folder.exists()  # nothing written
    written = sync_entry_stamps(lock, ["a", "b"], folder)  # a real run
    assert written == {"a": str(folder / "a.json"), "b": str(folder / "b.json")}
    lock.write_text(
        yaml.safe_dump({"lock_version": LOCK_VERSION, "models": {"a": {"commit": "1"}, "b": {"commit": "9"}}})
    )  # b edited
    before = (folder / "b.json").read_text()
    assert sync_entry_stamps(lock, ["a", "b"], folder, write=False) == {"a": str(folder / "a.json"), "b": str(lock)}
    assert (folder / "b.json").read_text() == before


def test_the_publish_check_in_a_dry_run_is_left_out_where_a_real_run_would_write_it(tmp_path):
    manifest, check = tmp_path / "published_files.json", tmp_path / "published_check.stamp"
    published = tmp_path / "fig.png"
    published.write_text("x")
    manifest.write_text(json.dumps([str(published)]))
    assert check_input(manifest, check, dry_run=True) == [] and not check.exists()  # no check file yet
    assert check_input(manifest, check) == str(check) and check.exists()  # a real run writes it
    assert check_input(manifest, check, dry_run=True) == str(check)
    published.unlink()
    assert check_input(manifest, check, dry_run=True) == []


def test_the_command_line_is_read_as_snakemake_reads_it():
    argv = ["/x/bin/snakemake", "-n", "--cores", "2", "results/figures", "--configfile", "a.yaml", "b.yaml"]
    assert requested_targets(argv) == ["results/figures"] and is_dry_run(argv)
    assert requested_targets(["/x/snakemake/__main__.py", "--cores", "1", "all"]) == ["all"]
    assert requested_targets(["/x/bin/pytest", "tests/x.py"]) == []  # not Snakemake's command line
    assert requested_targets(["/x/bin/snakemake", "--target-jobs", "score:model=a", "--cores", "1", "x"]) == []
    assert not is_dry_run(["/x/bin/snakemake", "--cores", "1"])


def test_a_target_a_rule_makes_passes_and_a_typo_does_not():
    names, fixed = ["all", "publish", "study_open_llm"], ["results/figures", "results/tables"]
    makes = lambda target: target.startswith("results/scores/")  # noqa: E731
    assert target_problem("results/scores/m/t.parquet", names, fixed, makes) is None
    assert target_problem("study_open_llm", names, fixed, makes) is None
    assert "closest: study_open_llm" in target_problem("study_open_lm", names, fixed, makes)


def test_a_mistyped_config_key_is_one_line_with_the_closest():
    """`--config seeed=3` printed 94 KB (validate()'s schema dump); now one line."""
    from benchval.plumbing.config import check_top_level_keys
    from benchval.plumbing.config_error import ConfigError

    check_top_level_keys({"seed": 3, "analysis": {}})
    with pytest.raises(ConfigError, match=r"^seeed: not a config key \(closest: 'seed'\);"):
        check_top_level_keys({"seed": 1, "seeed": 3})
