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
