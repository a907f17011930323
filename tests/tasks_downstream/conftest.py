"""Shared fixtures: the raw-data mirror, the downstream catalogue, and a runner for adapters."""

from __future__ import annotations


import pytest
import yaml

import benchval.tasks.downstream  # noqa: F401  (registers the adapters)
from benchval.plumbing.folders import REPO_ROOT

CATALOGUE = REPO_ROOT / "config" / "catalogue" / "downstream.yaml"


@pytest.fixture(scope="session")
def catalogue() -> dict:
    return yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
