"""Where things live: the repository root and the shared raw-data mirror."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def default_mirror() -> Path | None:
    """The shared raw-data mirror beside the checkout (../shared/data/raw), if it exists."""
    candidate = REPO_ROOT.parent / "shared" / "data" / "raw"
    return candidate if candidate.is_dir() else None
