"""Config values (issue 47, "Config values"): a number that is not finite, a cost the machine cannot carry, a YAML
file that expands without bound and a nested key typo each stop the start-up in one line naming the key (and
the closest valid value), before any job is planned.

Before: `.nan` passed every jsonschema bound (comparisons with NaN are false), so `analysis.fdr.alpha: .nan`
planned and ran with every test `reject=False` (exit 0); `n_bootstrap: 1000000000` planned and failed in the
job allocating hundreds of GiB; a 1.2 kB alias bomb took minutes and gigabytes; a nested typo printed the
whole schema.
"""

from __future__ import annotations

import copy
import time

import pytest

from tests.silent.conftest import csv_study, lines_with

NAN = float("nan")


def _one_line_error(result, key: str) -> str:
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    found = lines_with(result, key)
    assert found, result.stderr[-3000:]
    assert all(len(line) < 1000 for line in (result.stdout + result.stderr).splitlines())
    return found[0]


def test_a_number_that_is_not_finite_stops_the_start_up_naming_its_key(dry_run):
    line = _one_line_error(dry_run({"analysis": {"fdr": {"alpha": NAN}}}, "results/figures"), "analysis.fdr.alpha")
    assert "finite" in line and "range (0, 1), default 0.05" in line, line


@pytest.mark.parametrize(
    "section, keys, value, stated",
    [
        ("analysis", ("ci_level",), NAN, "range (0, 1), default 0.95"),
        ("analysis", ("ridge_alpha",), NAN, "range (0, inf], default 1.0"),
        ("analysis", ("ridge_alpha",), float("inf"), "default 1.0"),
        ("robustness", ("findings", "min_share_agree"), NAN, "range (0, 1], default 0.8"),
        ("seed", (), NAN, "range [0, 4294967295]"),
    ],
)
def test_every_key_is_checked_by_the_same_start_up_check(default_config, section, keys, value, stated):
    """The same check as the dry run above (workflow/rules/common.smk), on each key the issue names."""
    from benchval.plumbing.config_error import ConfigError
    from benchval.plumbing.config_values import check_finite_numbers

    config = copy.deepcopy(default_config)
    if keys:
        target = config[section]
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    else:
        config[section] = value
    with pytest.raises(ConfigError) as error:
        check_finite_numbers(config)
    assert str(error.value).startswith(".".join((section, *keys)) + ": ") and stated in str(error.value)


def test_a_csv_studys_scale_must_be_finite(dry_run, tmp_path):
    table = tmp_path / "scores.csv"
    table.write_text("model,family,size_b,a\n" + "".join(f"m{i},f{i},{i + 1},{i}\n" for i in range(6)))
    overlay = {"studies": {"mine": csv_study(table, {"a": "a"}, scale=NAN)}}
    line = _one_line_error(dry_run(overlay, "study_mine"), "studies.mine.scale")
    assert "finite" in line, line


def test_a_bootstrap_that_cannot_fit_in_memory_is_refused_at_planning(dry_run):
    result = dry_run({"analysis": {"n_bootstrap": 1_000_000_000}}, "results/figures")
    line = _one_line_error(result, "analysis.n_bootstrap")
    assert "GiB" in line and "limit" in line, line


def test_a_bootstrap_that_fits_but_takes_long_is_warned_about(default_config):
    from benchval.plumbing.config_values import check_bootstrap_costs

    config = copy.deepcopy(default_config)
    warnings: list[str] = []
    sizes = {"obsscaling": (148, 8), "default": (3, 20)}
    check_bootstrap_costs(config, sizes, warnings.append)
    assert warnings == []  # the default run: 5,000 resamples, no warning
    config["analysis"]["n_bootstrap"] = 200_000
    check_bootstrap_costs(config, sizes, warnings.append)
    [line] = warnings
    assert line.startswith("analysis.n_bootstrap: 200,000 resamples take about") and "'obsscaling'" in line, line


def test_a_yaml_alias_bomb_is_refused_before_it_is_expanded(dry_run, tmp_path):
    levels = ["&a [" + ", ".join(["x"] * 10) + "]"]
    levels += [f"&{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]" for i in range(8)]  # 10**9 strings
    table = tmp_path / "scores.csv"
    table.write_text("model,family,size_b,a\n" + "".join(f"m{i},f{i},{i + 1},0.{i}\n" for i in range(6)))
    overlay = f"studies:\n  mine:\n    source: csv\n    path: {table}\n    missing_values: [{', '.join(levels)}]\n"
    overlay += "    columns: {model: model, family: family, size_b: size_b}\n"
    overlay += "    tasks: {a: {column: a, role: downstream}}\n"
    assert len(overlay) < 1500
    started = time.monotonic()
    result = dry_run(overlay, "study_mine", timeout=60)
    assert time.monotonic() - started < 30
    line = _one_line_error(result, "overlay.yaml")
    assert "alias" in line and "line 5" in line, line


def test_a_nested_key_typo_answers_with_the_closest_key_not_the_schema(dry_run):
    result = dry_run({"analysis": {"n_bootstrapp": 500}}, "results/figures")
    line = _one_line_error(result, "analysis.n_bootstrapp")
    assert "'n_bootstrap'" in line, line
    assert len((result.stdout + result.stderr).splitlines()) < 40  # no schema dump (it was 238 lines)
