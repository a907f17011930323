"""Reports of runs that never happened, and dry-run noise (issue 47).

Before: `snakemake --report results/report.html` before any run of the config exited 0 with "Report created."
(8 MB, 2,208 missing-metadata warnings); a dry run after a config change printed "Params have changed" reasons
that held the whole config (rule report_config's params: a line of 104,521 characters for the paper's config).
"""

from __future__ import annotations

from tests.silent.conftest import lines_with


def test_a_report_of_a_config_none_of_whose_outputs_exist_is_refused_in_one_line(dry_run, tmp_path):
    result = dry_run(None, "--report", str(tmp_path / "report.html"), dry=False)
    assert result.returncode == 1, result.stdout[-2000:]
    [line] = lines_with(result, "--report:")
    assert "none of" in line and "run the workflow first" in line, line
    assert not (tmp_path / "report.html").exists()


def test_the_report_config_rule_reruns_on_a_digest_not_on_the_whole_config(default_config):
    from benchval.jobs.reruns import config_digest  # new in issue 47

    digest = config_digest(default_config)
    assert len(repr(digest)) < 100
    changed = {**default_config, "seed": default_config["seed"] + 1}
    assert config_digest(changed) != digest
    assert config_digest({key: default_config[key] for key in reversed(list(default_config))}) == digest
