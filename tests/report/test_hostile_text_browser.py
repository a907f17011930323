"""Untrusted text never runs in a page we write (issue 42, "Every page escapes").

The same payloads (a script tag, an event handler, an attribute break-out, a ``javascript:`` link, a
``</script>`` that ends an inline script, template syntax) go through every user-controlled string (model,
family, task key and label, column header, study, criterion, predictor, source file name, a config value)
into every page the workflow writes: the findings page (results/findings.html and the report's copy), the
report's table, models and config pages, the atlas explorer, and the Snakemake report itself. Each page is
opened in headless Chromium (offline); a payload that runs records itself in ``window.__ran``, and the
test asserts that nothing did, that no link has a ``javascript:`` target and that the payload's text is
shown literally.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
import yaml
from test_explorer_browser import FLAGS
from test_explorer_browser import _frames as explorer_frames
from test_findings import CRITERIA, _tables
from test_report_browser import TOY, browser_binaries
from webdriver import HeadlessChromium

from benchval.atlas.explorer import write_explorer
from benchval.report import findings as F
from benchval.report.pages import write_config_page, write_models_pages, write_table_page
from benchval.testing.snakemake_run import run_snakemake, snakemake_command

RAN = "(window.__ran=window.__ran||[]).push"
PAYLOADS = (
    f"<script>{RAN}('script')</script>",
    f"<img src=x onerror=\"{RAN}('onerror')\">",
    f"\"'><svg onload=\"{RAN}('attribute')\">",
    f"[click](javascript:{RAN}('link'))",
    f"</script><script>{RAN}('end-script')</script>",
    f"{{{{constructor.constructor(\"{RAN}('template')\")()}}}} ${{{RAN}('template-literal')}}",
)
#: a payload without "/" for names that must also be file names
FILE_PAYLOAD = f"<img src=x onerror=\"{RAN}('file-name')\">"


def hostile(index: int) -> str:
    return f"h{index}{PAYLOADS[index % len(PAYLOADS)]}"


def assert_no_script_ran(browser, url: str, literal: str | None = None) -> None:
    browser.open(url)
    browser.wait_for("return document.readyState === 'complete'")
    ran = browser.run("return window.__ran || []")
    assert not ran, f"{url}: the payloads {ran} ran"
    links = browser.run(
        "return [...document.querySelectorAll('[href],[src],[action]')]"
        ".map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action'))"
        ".filter(v => /^\\s*javascript:/i.test(v))"
    )
    assert not links, f"{url}: javascript: targets {links}"
    if literal is not None:
        text = browser.run("return document.body.innerText")
        assert literal in " ".join(text.split()), f"{url}: {literal!r} is not shown as text"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver = browser_binaries()
    profile = tmp_path_factory.mktemp("chromium-profile-hostile")
    with HeadlessChromium(chromium, driver, extra_args=(*FLAGS, f"--user-data-dir={profile}")) as session:
        session.set_script_timeout(60)
        yield session


def hostile_findings_tables():
    """The findings test's tables with every task key, label, metric and flipped-by name hostile."""
    keys = {"hs": hostile(0), "wg": hostile(1), "gsm": hostile(2), "arc": hostile(3), "tqa": hostile(4)}
    tables = _tables()
    for name in ("correlations_cs_downstream", "partial_spearman"):
        tables[name] = tables[name].replace({"benchmark": keys, "downstream": keys}).assign(metric=hostile(5))
    spec = tables["spec"].assign(metric=hostile(5), flipped_by=hostile(6))
    spec["subject"] = spec["subject"].map(lambda s: " ~ ".join(keys[k] for k in s.split(" ~ ")))
    tables["spec"] = spec
    labels = {key: hostile(10 + i) for i, key in enumerate(keys.values())}
    return tables, labels


def test_findings_page_runs_no_user_text(browser, tmp_path):
    """Through write_findings, as rule findings runs it: the study's tables and tasks.csv as files."""
    tables, labels = hostile_findings_tables()
    study = hostile(20)
    found = F.study_findings(study, tables, labels, 5, CRITERIA)
    assert found.stated and found.rejected  # both the sentences and the rejected table carry the payloads
    paths = {"tasks": tmp_path / "tasks.csv"}
    pd.DataFrame({"task": list(labels), "label": list(labels.values())}).to_csv(paths["tasks"], index=False)
    for name in F.STUDY_INPUTS:
        paths[name] = tmp_path / f"{name}.csv"
        tables["spec" if name == "specification_robustness" else name].to_csv(paths[name], index=False)
    atlas = tmp_path / "human_preference.csv"
    pd.DataFrame(
        [
            {"criterion": hostile(21), "predictor": hostile(22), "rank": 1, "n_models": 40, "rho": 0.6}
            | {"rho_beyond_g": 0.4, "rho_beyond_g_ci_low": 0.2, "rho_beyond_g_ci_high": 0.6}
            | {"n_beyond_g": 40, "q_beyond_g": 0.001}
        ]
    ).to_csv(atlas, index=False)
    commonwhy = tmp_path / "commonwhy"
    commonwhy.mkdir()
    (commonwhy / f"{FILE_PAYLOAD}.csv").write_text("a\n1\n", encoding="utf-8")
    outputs = {name: tmp_path / "out" / f"{name}.html" for name in ("markdown", "html", "report")}
    written = F.write_findings({study: paths}, 5, CRITERIA, atlas, commonwhy, outputs)
    assert written[0].stated
    for name in ("html", "report"):
        assert_no_script_ran(browser, outputs[name].as_uri(), literal=hostile(20))


def test_report_pages_run_no_user_text(browser, tmp_path):
    frame = pd.DataFrame({hostile(i): [hostile(i + 1), 0.5] for i in range(len(PAYLOADS))})
    table = write_table_page(frame, tmp_path / "table.html", hostile(7), hostile(8))
    assert_no_script_ran(browser, table.as_uri(), literal=hostile(1))
    config = write_config_page({"studies": {"s": {"columns": {hostile(4): hostile(5)}}}}, tmp_path / "config.html")
    assert_no_script_ran(browser, config.as_uri())
    manifest = tmp_path / "benchval-model.json"
    manifest.write_text(
        json.dumps({"name": hostile(0), "family": hostile(1), "source": {"type": "local", "path": hostile(2)}})
    )
    models = tmp_path / "models.html"
    write_models_pages([manifest], models, tmp_path / "models.csv", hostile(3))
    assert_no_script_ran(browser, models.as_uri(), literal=hostile(0))


def test_explorer_runs_no_user_text(browser, tmp_path):
    table, cells, registry = explorer_frames()
    names = {name: hostile(i) for i, name in enumerate(sorted(set(table["criterion"]) | set(table["predictor"])))}
    models = {model: hostile(30 + i) for i, model in enumerate(registry["canonical_id"])}
    table = table.replace({"criterion": names, "predictor": names})
    cells = cells.replace({"column": names, "canonical_id": models}).assign(source=FILE_PAYLOAD)
    registry = registry.replace({"canonical_id": models}).assign(family=hostile(40))
    criteria = sorted(set(table["criterion"]))
    page = write_explorer(table, cells, registry, criteria, 3, 0.95, {hostile(41): "x.csv"}, tmp_path / "x.html")
    assert_no_script_ran(browser, page.as_uri())


def test_snakemake_report_runs_no_config_text(browser, tmp_path):
    """The Snakemake report embeds each reported job's params as JSON inside a <script> block: a config
    value with ``</script>`` must not end it."""
    overlay = tmp_path / "hostile.yaml"  # a csv column named with the payload, as in a study's `columns`
    overlay.write_text(
        yaml.safe_dump({"hostile": {"path": "{mirror}/x.csv", "columns": {PAYLOADS[4]: PAYLOADS[1]}}}), encoding="utf-8"
    )
    toy = [*snakemake_command(tmp_path, snakefile=TOY), "--configfile", str(overlay)]
    run, _ = run_snakemake([*toy, "--cores", "1", "--", "report_config"])
    assert run.returncode == 0, run.stderr[-3000:]
    report = tmp_path / "report.html"
    made, _ = run_snakemake([*toy, "--report", str(report), "--", "report_config"], timeout=300)
    assert made.returncode == 0, made.stderr[-3000:]
    assert_no_script_ran(browser, report.as_uri())
    assert browser.run("return typeof results") == "object"  # the report's own data block still parses
