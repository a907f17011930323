"""The command line that runs this repository's Snakemake workflow (for tests and benchmarks)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from benchval.paths import REPO_ROOT


def snakemake_command(
    workdir: str | Path, configfiles: Iterable[str | Path], cores: int, *args: str, snakefile: str | Path | None = None
) -> list[str]:
    """``python -m snakemake`` on the repository's Snakefile (or ``snakefile``) in ``workdir``, with
    ``configfiles`` (a later one overrides an earlier one), ``--cores cores`` and ``args`` (flags, targets)."""
    return [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(snakefile or REPO_ROOT / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        *(str(path) for path in configfiles),
        "--cores",
        str(cores),
        *args,
    ]
