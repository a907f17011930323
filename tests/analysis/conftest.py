"""Shared fixtures: small synthetic studies written to tmp_path."""

from __future__ import annotations

import pytest

from benchval.analysis.settings import settings_from_config
from benchval.testing.synthetic_study import synthetic_study, write_synthetic_study
from benchval.analysis.study_table import load_study


@pytest.fixture
def settings():
    return settings_from_config({"seed": 7, "n_bootstrap": 400})


@pytest.fixture
def study_files(tmp_path):
    return write_synthetic_study(tmp_path / "study", seed=3)


@pytest.fixture
def study(study_files):
    return load_study(*study_files)


@pytest.fixture
def synthetic_frames():
    return synthetic_study(seed=3)


@pytest.fixture
def audited(monkeypatch):
    """Every Figure.savefig in the test records the figure's layout problems at the saved dpi
    (benchval.analysis.figures.legibility.layout_problems)."""
    from matplotlib.figure import Figure

    from benchval.analysis.figures.legibility import layout_problems

    found: dict[str, list[str]] = {}
    original = Figure.savefig

    def savefig(self, path, *args, **kwargs):
        found[str(path)] = layout_problems(self, kwargs.get("dpi"), bbox_inches=kwargs.get("bbox_inches"))
        return original(self, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    return found
