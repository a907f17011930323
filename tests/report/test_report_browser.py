"""The Snakemake report opens in headless Chromium, offline, with its figures, tables and captions.

Builds the report of the toy workflow in tests/report/toy/ (a synthetic study run through the
real analysis and the real workflow/rules/report.smk), then drives Chromium through chromedriver
(Debian packages chromium, chromium-driver; installed with apt-get when missing and possible).
Screenshots are kept in $BENCHVAL_TEST_ARTIFACTS (default results/test-artifacts/report/).
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from webdriver import HeadlessChromium

from benchval.analysis.outputs import FIGURE_STEMS, TABLE_NAMES
from benchval.testing.snakemake_run import run_snakemake, snakemake_command

REPO = Path(__file__).resolve().parents[2]
TOY = REPO / "tests" / "report" / "toy" / "Snakefile"
ARTIFACTS = Path(os.environ.get("BENCHVAL_TEST_ARTIFACTS", REPO / "results" / "test-artifacts")) / "report"
CAPTIONS = REPO / "workflow" / "report"
FIGURES = tuple(FIGURE_STEMS)
PACKAGES = ("chromium", "chromium-driver")


def browser_binaries() -> tuple[str, str]:
    """(chromium, chromedriver) paths; install the Debian packages if missing; skip if impossible."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium and driver:
        return chromium, driver
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("chromium/chromedriver missing and cannot be installed here (needs root and apt-get)")
    result = subprocess.run(
        ["apt-get", "install", "-y", "--no-install-recommends", *PACKAGES],
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if result.returncode != 0 or not (chromium and driver):
        pytest.skip(f"apt-get install {' '.join(PACKAGES)} failed: {result.stderr.strip()[-300:]}")
    return chromium, driver


def test_every_figure_and_table_has_a_caption():
    """workflow/rules/report.smk needs workflow/report/<figure>.rst and table_<table>.rst."""
    missing = [f"{stem}.rst" for stem in FIGURE_STEMS if not (CAPTIONS / f"{stem}.rst").is_file()]
    missing += [
        f"table_{name}.rst"
        for name in ("score_table", "task_table", *TABLE_NAMES)
        if not (CAPTIONS / f"table_{name}.rst").is_file()
    ]
    assert not missing, f"write these captions in {CAPTIONS} (what the output shows, how to read it): {missing}"


@pytest.fixture(scope="module")
def report_html(tmp_path_factory) -> Path:
    workdir = tmp_path_factory.mktemp("toy_report")
    toy = snakemake_command(workdir, snakefile=TOY)
    run, run_s = run_snakemake([*toy, "--cores", "2"])
    assert run.returncode == 0, run.stderr[-4000:]
    report = workdir / "report.html"
    made, made_s = run_snakemake([*toy, "--report", str(report)], timeout=300)
    assert made.returncode == 0, made.stderr[-4000:]
    assert "ERROR/" not in made.stderr and "WARNING/" not in made.stderr, (
        f"a caption is not valid reStructuredText:\n{made.stderr[-2000:]}"
    )
    print(f"toy workflow + report in {run_s + made_s:.1f} s")
    return report


@pytest.fixture(scope="module")
def browser():
    chromium, driver = browser_binaries()
    with HeadlessChromium(chromium, driver) as session:
        session.set_script_timeout(60)
        yield session


def open_report(browser, report_html: Path) -> None:
    browser.open(report_html.as_uri())
    browser.wait_for("return document.readyState === 'complete' && !!document.querySelector('#app nav')")


def show_category(browser, name: str, report_html: Path) -> int:
    """Open the report's menu at category `name`; return how many results it lists."""
    open_report(browser, report_html)
    browser.click(browser.find_all(f'//nav//*[normalize-space(text())="{name}"]')[0])
    return browser.wait_for("return document.querySelectorAll('nav a[iconname=eye]').length")


def test_report_has_every_section(report_html):
    html = report_html.read_text(encoding="utf-8")
    for category in ("0 Findings (read first)", "Figures", "Tables", "Models", "Tasks", "Configuration"):
        assert f'"{category}"' in html
    # the findings page, from the synthetic study's tables (results/findings.md beside the report)
    findings = (report_html.parent / "results" / "findings.md").read_text(encoding="utf-8")
    assert findings.startswith("# Findings") and "## synth (23 models)" in findings
    for stem in FIGURES:
        assert f"results/report/synth/figures/{stem}.png" in html
    # Captions say how to read the figures (rendered from workflow/report/*.rst).
    assert "do benchmark rankings transfer to downstream tasks?" in html
    assert "table4_rank_displacement" in html


def test_report_renders_its_figures_offline(browser, report_html):
    open_report(browser, report_html)
    # Every image embedded in the report decodes in the browser.
    sizes = browser.run_async("""
        const done = arguments[arguments.length - 1];
        const images = Object.entries(results).filter(([path, r]) => r.mime_type.startsWith('image/'));
        Promise.all(images.map(([path, r]) => new Promise(resolve => {
            const img = new Image();
            img.onload = () => resolve([path, img.naturalWidth, img.naturalHeight]);
            img.onerror = () => resolve([path, 0, 0]);
            img.src = r.data_uri;
        }))).then(done);
    """)
    assert sorted(path for path, _, _ in sizes) == sorted(f"results/report/synth/figures/{s}.png" for s in FIGURES)
    assert all(width > 100 and height > 100 for _, width, height in sizes), sizes

    # Clicking each figure in the menu shows it, loaded, in the main view.
    assert show_category(browser, "Figures", report_html) == len(FIGURES)
    for index, stem in enumerate(FIGURES):
        browser.click(browser.find_all('//nav//a[@iconname="eye"]')[index])
        shown = browser.wait_for(
            """
            const img = Array.from(document.querySelectorAll('#app img')).find(i => !i.closest('nav'));
            return img && img.complete && img.naturalWidth > 0 && img.src.includes(arguments[0])
                ? [img.naturalWidth, img.naturalHeight] : null;
        """,
            20,
            f"filename={stem}.png",
        )
        assert shown[0] > 100
        shot = browser.screenshot(ARTIFACTS / f"report_{stem}.png")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    print(f"screenshots in {ARTIFACTS}")


def page_of(browser, report_html: Path, category: str, index: int = 0) -> str:
    """Open result `index` of `category`; return the HTML page it shows (decoded from its data URI)."""
    show_category(browser, category, report_html)
    browser.click(browser.find_all('//nav//a[@iconname="eye"]')[index])
    uri = browser.wait_for("""
        const frame = Array.from(document.querySelectorAll('#app iframe')).find(f => f.src.startsWith('data:text/html'));
        return frame ? frame.src : null;
    """)
    return base64.b64decode(uri.split("base64,", 1)[1]).decode("utf-8")


def test_report_shows_models_tasks_config_and_tables(browser, report_html):
    models = page_of(browser, report_html, "Models")
    assert "<table>" in models and "hf:org/tiny-a@0123abc" in models and "local folder /models/tiny-b" in models
    assert "0" * 64 in models  # the weights checksum column
    tasks = page_of(browser, report_html, "Tasks")
    assert "n_after_filters" in tasks and "agreement: ambiguous -269" in tasks
    config = page_of(browser, report_html, "Configuration")
    assert "seed: 11" in config and "n_bootstrap: 200" in config
    assert show_category(browser, "Tables", report_html) == 2 + len(TABLE_NAMES)  # + score table and task table
    table = page_of(browser, report_html, "Tables", 0)
    assert "<table>" in table and "<td" in table
    browser.screenshot(ARTIFACTS / "report_table.png")
