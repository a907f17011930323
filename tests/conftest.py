"""Fixtures shared by every test folder."""

from pathlib import Path

import pytest

from benchval.paths import default_mirror


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The shared raw-data mirror; tests that need it skip with this reason when it is absent."""
    found = default_mirror()
    if found is None:
        pytest.skip("raw-data mirror ../shared/data/raw is absent (benchval.paths.default_mirror())")
    return found
