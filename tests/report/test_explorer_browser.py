"""The explorer (benchval.atlas.explorer) in a real headless browser: Debian's chromium and chromium-driver
(install.sh installs them), offline, a fresh profile. No console error; choosing a criterion in the
dropdown changes the predictors drawn, read back from the page's SVG; the same check fails on a page with
a script error. Screenshots go to $BENCHVAL_TEST_ARTIFACTS (default results/test-artifacts/explorer/)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd
import pytest
from test_report_browser import browser_binaries
from webdriver import HeadlessChromium

from benchval.atlas.explorer import write_explorer

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BENCHVAL_TEST_ARTIFACTS", REPO / "results" / "test-artifacts")) / "explorer"
FLAGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
PREDICTORS = {"crit_one": ["alpha", "beta", "gamma"], "crit_two": ["delta", "epsilon", "zeta", "eta"]}


def _frames() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    rows = [
        {
            "criterion": c,
            "predictor": p,
            "n_models": 12 + 10 * i,
            "rho": 0.9 - 0.2 * i,
            "ci_low": 0.7 - 0.2 * i,
            "ci_high": 0.95 - 0.2 * i,
        }
        for c, predictors in PREDICTORS.items()
        for i, p in enumerate(predictors)
    ]
    columns = [*PREDICTORS, *(p for ps in PREDICTORS.values() for p in ps)]
    models = [f"org/model-{i}" for i in range(15)]
    cells = pd.DataFrame(
        [
            {"canonical_id": m, "column": c, "value": float(i * (j + 1) % 7), "source": f"{c}.csv"}
            for i, m in enumerate(models)
            for j, c in enumerate(columns)
        ]
    )
    registry = pd.DataFrame({"canonical_id": models, "family": ["llama", "qwen", None] * 5})
    return pd.DataFrame(rows), cells, registry


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    table, cells, registry = _frames()
    path = tmp_path_factory.mktemp("explorer") / "index.html"
    write_explorer(table, cells, registry, list(PREDICTORS), 3, 0.95, {"pairs.csv": "../atlas/pairs.csv"}, path)
    return path


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver = browser_binaries()
    profile = tmp_path_factory.mktemp("chromium-profile")
    flags = (*FLAGS, f"--user-data-dir={profile}")
    with HeadlessChromium(chromium, driver, extra_args=flags, console_log=True) as session:
        session.set_script_timeout(60)
        yield session


def open_without_errors(browser, url: str) -> None:
    """Open ``url``, wait for both plots, and fail on any console error the page logged."""
    browser.browser_log()  # forget what earlier pages logged
    browser.open(url)
    browser.wait_for("return document.readyState === 'complete'")
    errors = [entry for entry in browser.browser_log() if entry.get("level") == "SEVERE"]
    assert not errors, f"console errors on {url}: {[e['message'][:300] for e in errors]}"
    browser.wait_for("return document.querySelectorAll('.js-plotly-plot .main-svg').length >= 2", timeout=30)


def drawn_predictors(browser) -> list[str]:
    return browser.run("return [...document.querySelectorAll('#predictors .ytick text')].map(t => t.textContent)")


def test_explorer_works_offline_and_the_criterion_menu_changes_the_plot(browser, page):
    open_without_errors(browser, page.as_uri())
    assert sorted(drawn_predictors(browser)) == sorted(PREDICTORS["crit_one"])
    assert not re.search(r"<script[^>]*\bsrc=", page.read_text()), "the page loads a script from elsewhere"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.screenshot(ARTIFACTS / "explorer_first.png")
    browser.click(browser.find_all("//*[@id='predictors']//*[contains(@class, 'updatemenu-header')]")[0])
    browser.wait_for("return document.querySelectorAll('#predictors .updatemenu-dropdown-button').length > 0")
    options = browser.find_all("//*[@id='predictors']//*[@class='updatemenu-dropdown-button']")
    assert len(options) == 2, options
    browser.click(options[1])
    shown = browser.wait_for(
        "const t = [...document.querySelectorAll('#predictors .ytick text')].map(t => t.textContent);"
        "return t.includes('delta') ? t : null;"
    )
    assert sorted(shown) == sorted(PREDICTORS["crit_two"])
    title = browser.run("return document.querySelector('#predictors .gtitle').textContent")
    assert "crit_two" in title
    errors = [entry for entry in browser.browser_log() if entry.get("level") == "SEVERE"]
    assert not errors, errors
    browser.screenshot(ARTIFACTS / "explorer_second.png")


def test_the_check_fails_on_a_page_with_a_script_error(browser, page, tmp_path):
    broken = tmp_path / "broken.html"
    broken.write_text(page.read_text().replace("</body>", "<script>noSuchFunction();</script></body>"))
    with pytest.raises(AssertionError, match="console errors.*noSuchFunction"):
        open_without_errors(browser, broken.as_uri())
