"""Shared fixtures: the raw-data mirror, the downstream catalogue, and a runner for adapters."""

from __future__ import annotations


import pytest

from benchval.tasks.registry import folder_catalogue

DOWNSTREAM_ROLES = ("downstream", "control")


@pytest.fixture(scope="session")
def catalogue() -> dict:
    """The downstream and control task folders' tasks, and every dataset the folders declare."""
    return folder_catalogue(DOWNSTREAM_ROLES)
