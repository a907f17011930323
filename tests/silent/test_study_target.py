"""One study target gives the study's findings page and its figures, and every link on that page resolves
(issue 47, "Stale results"): `snakemake study_<name>` is the one documented command for a study of one's own.

Before: the study target wrote no findings page and not all of the study's figures (the specification curve
came only with `results/figures`); the run's findings page linked `figures/<study>/*.png`, files that exist
only after `results/figures` has also run (three commands for one study).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from benchval.analysis.outputs import FIGURE_STEMS
from tests.silent.conftest import csv_study

STUDY = "results/studies/mine"


def toy_scores(path: Path) -> Path:
    """Twelve models of four families whose commonsense and downstream scores share one ability."""
    rng = np.random.default_rng(47)
    ability = rng.normal(size=12)
    frame = pd.DataFrame({"model": [f"m{i}" for i in range(12)], "family": [f"f{i % 4}" for i in range(12)]})
    frame["size_b"] = np.round(rng.uniform(0.5, 70, 12), 2)
    for column in ("cs_a", "cs_b", "ctrl", "down"):
        frame[column] = np.round(1 / (1 + np.exp(-(ability + 0.3 * rng.normal(size=12)))), 4)
    frame.to_csv(path, index=False)
    return path


def page_links(page: Path) -> list[str]:
    """Every link and image target of a Markdown page or its HTML rendering (data URIs and anchors left out)."""
    text = page.read_text(encoding="utf-8")
    if page.suffix == ".md":
        targets = re.findall(r"\]\(\s*([^)\s]+)", text)
    else:
        targets = re.findall(r'(?:href|src)="([^"]+)"', text)
    return [t for t in targets if not t.startswith(("data:", "#", "http://", "https://"))]


def test_one_study_target_gives_the_findings_page_and_figures_and_every_link_resolves(dry_run, tmp_path):
    roles = {"cs_a": "cs_original", "cs_b": "cs_original", "ctrl": "control", "down": "downstream"}
    study = csv_study(toy_scores(tmp_path / "scores.csv"), {column: column for column in roles})
    for task, role in roles.items():
        study["tasks"][task]["role"] = role
    overlay = {
        "studies": {"mine": study},
        "analysis": {"n_bootstrap": 100, "figures": {"formats": ["png"], "dpi": 50}},
        "robustness": {"power": {"n_sim": 50, "n_boot": 50}, "reliability": {"n_bootstrap": 100, "n_splits": 20}},
    }
    result = dry_run(overlay, "study_mine", dry=False, timeout=900)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    folder = tmp_path / "run" / STUDY
    for stem in (*FIGURE_STEMS, "specification_curve"):
        assert (folder / "figures" / f"{stem}.png").is_file(), stem
    for page in (folder / "findings.md", folder / "findings.html"):
        assert page.is_file(), f"the study target wrote no {page.name}"
        links = page_links(page)
        assert links, f"{page.name} links nothing"
        missing = [link for link in links if not (page.parent / link.split("#")[0]).is_file()]
        assert not missing, f"{page.name} links files that do not exist after the study target: {missing}"
